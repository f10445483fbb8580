
TEST_CASE("dlq-lab run: --version, --help and usage errors, with their exit codes") {
  const std::vector<std::string> version{"--version"};
  const Outcome v = Run(version);
  CHECK(v.exit_code == 0);
  CHECK(v.out == std::string("dlq-lab ") + kVersion + "\n");
  const std::vector<std::string> help{"--help"};
  CHECK(Run(help).out == UsageText());
  const std::vector<std::string> bad{"check", "--format", "xml"};
  const Outcome b = Run(bad);
  CHECK(b.exit_code == 2);
  CHECK(b.out.empty());
  CHECK(b.err.rfind("dlq-lab: --format: expected text, json, junit, sarif or github, got \"xml\"\n", 0) == 0);
}

TEST_CASE("dlq-lab run: a missing file, a file it does not read and a bad --config are exit 2 by name") {
  TempDir dir;
  dir.Write("notes.txt", "hello");
  dir.Write("ci.yml", "goals:\n  outage: soon\n");
  const std::string notes = (dir.path / "notes.txt").string();
  const std::string config = (dir.path / "ci.yml").string();
  const std::string missing = (dir.path / "missing.json").string();
  const Outcome m = Run(std::vector<std::string>{"check", missing});
  CHECK(m.exit_code == 2);
  CHECK(m.err == "dlq-lab: " + missing + ": no such file or directory\n");
  const Outcome n = Run(std::vector<std::string>{"check", notes});
  CHECK(n.exit_code == 2);
  CHECK(n.err.rfind("dlq-lab: " + notes + ": not a file dlq-lab reads (it reads: ", 0) == 0);
  const Outcome c = Run(std::vector<std::string>{"check", dir.path.string(), "--config", config});
  CHECK(c.exit_code == 2);
  CHECK(c.err.rfind("dlq-lab: " + config + ":2: ", 0) == 0);
}

TEST_CASE("dlq-lab run: a directory with nothing it reads is an empty report, exit 0, said on stderr") {
  TempDir dir;
  dir.Write("README.md", "# infra\n");
  const Outcome r = Run(std::vector<std::string>{"check", dir.path.string(), "--format", "json"});
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("\"summary\": {\"queues\": 0, \"errors\": 0, \"warnings\": 0, \"notes\": 0, \"skipped\": 0}") !=
        std::string::npos);
  CHECK(r.err.rfind("dlq-lab: found no file it reads", 0) == 0);
}
