// Prints the timeline of a scenario link read from stdin (or argv[1]), one line
// per event; the way link fixtures' .timeline.txt files are made and reviewed.
// With --snapshot first, prints the snapshot of the scenario's state instead (the
// way tests/fixtures/snapshots/*.snap are made).
// Exit status 2 with the core's message on stderr for a link it refuses.
#include <cstdio>
#include <iostream>
#include <iterator>
#include <string>

#include "dlq.h"

int main(int argc, char** argv) {
  const bool snapshot = argc > 1 && std::string(argv[1]) == "--snapshot";
  if (snapshot) {
    --argc;
    ++argv;
  }
  std::string text = argc > 1 ? argv[1] : std::string(std::istreambuf_iterator<char>(std::cin), {});
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  auto scenario = dlq::ParseScenario(text);
  if (!scenario.ok()) {
    std::fprintf(stderr, "%s\n", scenario.status().ToString().c_str());
    return 2;
  }
  auto queue = dlq::RunScenario(scenario.value());
  if (!queue.ok()) {
    std::fprintf(stderr, "%s\n", queue.status().ToString().c_str());
    return 2;
  }
  if (snapshot) {
    auto written = queue->view().SnapshotText();
    if (!written.ok()) {
      std::fprintf(stderr, "%s\n", written.status().ToString().c_str());
      return 2;
    }
    std::fwrite(written->data(), 1, written->size(), stdout);
    return 0;
  }
  std::fwrite(queue->view().TimelineText().data(), 1, queue->view().TimelineText().size(), stdout);
  return 0;
}
