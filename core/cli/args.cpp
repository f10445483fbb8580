// dlq-lab's arguments (cli.h): parsed without touching a file.
#include <string>
#include <string_view>

#include "cli.h"
#include "formats/formats.h"

namespace dlq::cli {
namespace {

// The value of an option given as "--name VALUE" or "--name=VALUE"; advances *i.
Result<std::string> OptionValue(std::span<const std::string> args, size_t* i, std::string_view name) {
  const std::string& arg = args[*i];
  if (arg.size() > name.size() && arg[name.size()] == '=') return arg.substr(name.size() + 1);
  if (*i + 1 >= args.size()) return Status::InvalidArgument(std::string(name) + ": expected a value, got nothing");
  return args[++*i];
}

bool IsOption(const std::string& arg, std::string_view name) {
  return arg == name || (arg.size() > name.size() && arg.compare(0, name.size(), name) == 0 && arg[name.size()] == '=');
}

Status SetOption(std::span<const std::string> args, size_t* i, Args* out) {
  const std::string& arg = args[*i];
  const auto take = [&](std::string_view name, std::string* field) -> Status {
    Result<std::string> value = OptionValue(args, i, name);
    if (!value.ok()) return value.status();
    if (value->empty()) return Status::InvalidArgument(std::string(name) + ": expected a value, got an empty one");
    *field = std::move(value).value();
    return Status::Ok();
  };
  if (IsOption(arg, "--format")) {
    RETURN_IF_ERROR(take("--format", &out->format));
    if (out->format != "text" && out->format != "json" && out->format != "junit" && out->format != "sarif" &&
        out->format != "github") {
      return Status::InvalidArgument("--format: expected text, json, junit, sarif or github, got \"" +
                                     check::formats::TerminalText(out->format) + "\"");
    }
    return Status::Ok();
  }
  if (IsOption(arg, "--config")) return take("--config", &out->config);
  if (IsOption(arg, "--link-base")) return take("--link-base", &out->link_base);
  if (IsOption(arg, "--output")) return take("--output", &out->output);
  if (IsOption(arg, "--fail-on")) {
    std::string level;
    RETURN_IF_ERROR(take("--fail-on", &level));
    if (level == "warning") out->fail_on = check::Level::kWarning;
    else if (level == "error") out->fail_on = check::Level::kError;
    else
      return Status::InvalidArgument("--fail-on: expected warning or error, got \"" +
                                     check::formats::TerminalText(level) + "\"");
    return Status::Ok();
  }
  return Status::InvalidArgument("unknown option \"" + check::formats::TerminalText(arg) +
                                 "\" (dlq-lab --help lists them)");
}

}  // namespace

Result<Args> ParseArgs(std::span<const std::string> args) {
  Args out;
  if (args.empty()) return Status::InvalidArgument("expected a command (check), --help or --version, got nothing");
  const std::string& first = args[0];
  if (first == "--help" || first == "-h" || first == "help") {
    out.command = Args::Command::kHelp;
    return out;
  }
  if (first == "--version" || first == "-V") {
    out.command = Args::Command::kVersion;
    return out;
  }
  if (first != "check") {
    return Status::InvalidArgument("expected a command (check), --help or --version, got \"" +
                                   check::formats::TerminalText(first) + "\"");
  }
  bool only_paths = false;
  for (size_t i = 1; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (only_paths || arg.empty() || arg[0] != '-' || arg == "-") {
      if (arg.empty()) return Status::InvalidArgument("expected a path, got an empty argument");
      out.paths.push_back(arg);
    } else if (arg == "--") {
      only_paths = true;
    } else if (arg == "--help" || arg == "-h") {
      out.command = Args::Command::kHelp;
      return out;
    } else {
      RETURN_IF_ERROR(SetOption(args, &i, &out));
    }
  }
  if (out.paths.empty()) out.paths.push_back(".");
  return out;
}

std::string UsageText() {
  return "usage: dlq-lab check [PATH...] [--format text|json|junit|sarif|github] [--config FILE]\n"
         "                     [--fail-on warning|error] [--link-base URL] [--output FILE]\n"
         "       dlq-lab --help | --version\n"
         "\n"
         "Checks a team's queue configuration (Terraform plan JSON, CloudFormation, RabbitMQ\n"
         "definitions and topology operator resources, Sidekiq, BullMQ job options) against\n"
         "time-aware dead-letter and retry rules. A PATH is a file, or a directory searched for\n"
         "the files dlq-lab reads (default: the working directory). .dlq-lab.yml in the working\n"
         "directory is read when --config is not given.\n"
         "\n"
         "Exit: 0 no failing finding, 1 a failing finding (an error; warnings too with\n"
         "--fail-on warning), 2 a usage, parse or configuration error, 3 an internal error.\n"
         "Rules, formats and goals: docs/check.md\n";
}

}  // namespace dlq::cli
