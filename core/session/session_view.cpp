// Session::View and Session::Link: what a page reads of a session, each a const
// read (nothing changes while it reads; what changed since the page's last
// answer is taken before, by TakeChanges).
#include "session.h"

#include <algorithm>
#include <string>

namespace dlq {

SessionView Session::View(const ViewAsk& ask, const SessionChanges& changes) const {
  SessionView v;
  v.cursor = cursor();
  v.length = length();
  v.generation = generation();
  v.advanced = advanced();
  v.leases = HoldsLeases();
  v.authored_through = AuthoredThrough();
  v.can_undo = can_undo();
  v.events_from = std::min({ask.from, changes.events_from, events_.size()});
  v.event_count = events_.size();
  v.events_at_cursor = EventsAt(cursor());
  v.last_event = LastActionEvent();
  v.last_action = cursor() > 0 ? &scenario_.actions[cursor() - 1] : nullptr;
  v.explanation = Explanation();
  v.last_crash = LastCrash();
  v.dropped = changes.dropped;
  v.refused = refused_;
  v.refused_replays = refused_replays_;

  // Ready as the page draws it: all of it, or its head and tail around one gap.
  const Queue& q = queue();
  const size_t ready = q.stats().ready;
  const auto show = [&](size_t at, size_t count) {
    for (JobView& job : q.view().Ready(at, count)) {
      const bool removable = IsRemovable(job.id);
      v.ready.push_back({std::move(job), removable, 0});
    }
  };
  if (ready <= ask.list_cap || ready <= ask.ready_head + ask.ready_tail) {
    show(0, ready);
  } else {
    show(0, ask.ready_head);
    v.ready.push_back({JobView{}, false, ready - ask.ready_head - ask.ready_tail});
    show(ready - ask.ready_tail, ask.ready_tail);
  }
  return v;
}

Result<std::string> Session::Link() const {
  std::string text = FormatScenario(scenario_);
  Result<Scenario> back = ParseScenario(text);  // the size limit and the strings, as a reader sees them
  if (!back.ok()) return back.status();
  return text;
}

}  // namespace dlq
