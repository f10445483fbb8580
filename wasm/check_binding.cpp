// Embind binding of dlq-lab check for the page's Check panel (web/check.html): files pasted or
// dropped in, the report out, exactly as `dlq-lab check` prints it for those files. The same
// core code as the CLI (core/cli/check_texts.h, then check::Format and check::ExitCode);
// conversion only here. Built on its own as wasm/gen/dlq_check.{mjs,wasm} (wasm/CMakeLists.txt),
// so the playground's dlq_core.wasm does not grow; wasm/check.mjs is the JavaScript half, which
// checks the arguments' types before they cross.
#include <emscripten/bind.h>
#include <emscripten/val.h>

#include <string>

#include "check_texts.h"
#include "cli.h"
#include "formats/formats.h"

namespace dlq_check_wasm {
namespace {

using emscripten::val;
namespace cli = dlq::cli;
namespace check = dlq::check;

// What the CLI prints on an error: "dlq-lab: <message>", exit 2.
val Failed(const dlq::Status& status) {
  val out = val::object();
  out.set("exitCode", cli::kExitUsage);
  out.set("failure", status.message());
  out.set("stderr", "dlq-lab: " + check::formats::TerminalText(status.message()) + "\n");
  return out;
}

val ArgumentError(const std::string& message) {
  val out = val::object();
  out.set("error", std::string("invalid-argument"));
  out.set("message", message);
  return out;
}

// files: [{ name, text, named }] (wasm/check.mjs has checked the types). config: the
// .dlq-lab.yml text, read when has_config. format: one check::Format names ("json" is
// always given too, as `report`). fail_on: "warning" or "error".
// Returns { exitCode, output, stderr, report (the json format's text), text }; as the CLI's
// exit 2, { exitCode: 2, failure, stderr }; for a bad format or fail_on, { error, message }.
val Check(val files, std::string config_text, bool has_config, std::string format, std::string link_base,
          std::string fail_on) {
  // The arguments first, as the CLI's usage errors come first: { error, message } naming the option.
  if (dlq::Result<std::string> known = check::Format(check::Report{}, format); !known.ok()) {
    return ArgumentError("options.format" + known.status().message().substr(std::string("--format").size()));
  }
  if (fail_on != "warning" && fail_on != "error") {
    return ArgumentError("options.failOn: expected warning or error, got \"" + check::formats::ValidUtf8(fail_on) +
                         "\"");
  }
  check::CheckConfig config;
  if (has_config) {
    dlq::Result<check::CheckConfig> read = check::ReadCheckConfig(".dlq-lab.yml", config_text);
    if (!read.ok()) return Failed(read.status());
    config = std::move(read).value();
  }
  cli::Gathered gathered;
  const unsigned count = files["length"].as<unsigned>();
  for (unsigned i = 0; i < count; ++i) {
    val file = files[i];
    dlq::Status added = cli::AddFile({file["name"].as<std::string>(), file["text"].as<std::string>()},
                                     file["named"].as<bool>(), &gathered);
    if (!added.ok()) return Failed(added);
  }
  dlq::Result<cli::Checked> checked = cli::CheckGathered(gathered, std::move(config), link_base);
  if (!checked.ok()) return Failed(checked.status());
  const check::Report& report = checked->report;
  dlq::Result<std::string> output = check::Format(report, format);
  if (!output.ok()) return Failed(output.status());
  val out = val::object();
  out.set("exitCode", check::ExitCode(report, fail_on == "warning" ? check::Level::kWarning : check::Level::kError));
  out.set("output", output.value());
  out.set("stderr", checked->warning.empty() ? std::string() : "dlq-lab: " + checked->warning + "\n");
  out.set("report", check::formats::Json(report));
  out.set("text", check::formats::Text(report));
  return out;
}

// { knownFormats: "Terraform plan JSON, …" }: what the checker reads, for the page's hint.
val Facts() {
  val out = val::object();
  out.set("knownFormats", cli::KnownFormats());
  return out;
}

}  // namespace

EMSCRIPTEN_BINDINGS(dlq_check) {
  emscripten::function("check", &Check);
  emscripten::function("facts", &Facts);
}

}  // namespace dlq_check_wasm
