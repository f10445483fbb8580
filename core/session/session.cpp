#include "session.h"

#include <algorithm>
#include <unordered_set>

#include "link.h"
#include "player.h"
#include "text.h"

namespace dlq {

namespace {

// "a", "a" and "b", "a", "b" and "c".
std::string IdList(const std::vector<std::string>& ids) {
  std::string out;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (i > 0) out += i + 1 == ids.size() ? " and " : ", ";
    out += QuoteShort(ids[i]);
  }
  return out;
}

std::string CrashNote(const CrashReport& r) {
  std::string out = "The process crashed after write " + std::to_string(r.applied) + " of " +
                    std::to_string(r.journal) + (r.torn_discarded ? ", with a torn half-write discarded," : "") +
                    " and restarted from what reached the disk: ";
  out += r.lost.empty() ? "nothing was lost" : "lost " + IdList(r.lost);
  if (!r.duplicated.empty()) out += "; found twice and kept once " + IdList(r.duplicated);
  return out + ".";
}

// Drops the world's behaviours for jobs the scenario no longer has (their
// enqueue was in a dropped part of the script), so what is left still passes
// CheckScenario; Undo brings the dropped part back with them.
void DropOrphanBehaviours(Scenario& scenario) {
  std::vector<JobBehaviour>& behaviours = scenario.world.behaviours;
  if (behaviours.empty()) return;
  std::unordered_set<std::string_view> ids;
  for (const JobSpec& job : scenario.jobs) ids.insert(job.id);
  for (const Action& a : scenario.actions) {
    if (const auto* enqueue = std::get_if<action::Enqueue>(&a)) ids.insert(enqueue->id);
  }
  behaviours.erase(
      std::remove_if(behaviours.begin(), behaviours.end(), [&](const JobBehaviour& b) { return ids.count(b.id) == 0; }),
      behaviours.end());
}

bool CountsAsRun(EventKind kind) {
  return kind == EventKind::kAttempt || kind == EventKind::kLeased || kind == EventKind::kReplayed;
}

}  // namespace

Result<Session::Played> Session::Copy(const Played& p) {
  Result<Queue> queue = p.queue.Clone();
  if (!queue.ok()) return queue.status();
  return Played{std::move(queue.value()), p.origin, p.seen};
}

void Session::TakeEvents(Played& p, size_t decided, std::vector<Event>* out) {
  const size_t count = p.queue.view().event_count();
  // A crash rewinds the queue's own timeline to what reached the disk, then adds
  // what recovery decided: those are the new events.
  if (decided != SIZE_MAX) p.seen = count - decided;
  if (out != nullptr) {
    for (size_t k = p.seen; k < count; ++k) out->push_back(p.queue.view().EventAt(k));
  }
  p.seen = count;
}

Status Session::Apply(Played& p, const Action& action, size_t index, std::vector<Event>* out) {
  CrashReport crash;
  const bool crashes = std::holds_alternative<action::Crash>(action);
  RETURN_IF_ERROR(ApplyAction(p.queue, p.origin, action, index, crashes ? &crash : nullptr));
  TakeEvents(p, crashes ? crash.lost.size() + crash.duplicated.size() : SIZE_MAX, out);
  return Status::Ok();
}

Result<Session> Session::Create(const Scenario& scenario) {
  Result<Queue> empty = Queue::Create(Policy{});
  if (!empty.ok()) return empty.status();
  Session session(Played{std::move(empty.value()), std::nullopt, 0});
  RETURN_IF_ERROR(session.Load(scenario));
  return session;
}

Status Session::Load(const Scenario& scenario, bool clamp) {
  RETURN_IF_ERROR(CheckScenario(scenario));
  Scenario next = scenario;
  Result<Queue> made = SetUpScenario(next);
  if (!made.ok()) return made.status();

  // Plays the whole script once: its timeline, where each action's events
  // start, checkpoints, and how far it still plays.
  Played played{std::move(made.value()), std::nullopt, 0};
  std::vector<Event> events;
  TakeEvents(played, SIZE_MAX, &events);
  std::vector<size_t> starts;
  std::vector<Checkpoint> checkpoints;
  std::unordered_map<size_t, CrashReport> crashes_found;
  std::optional<Played> at_cursor;
  Status stopped;
  size_t playable = 0;
  for (; playable <= next.actions.size(); ++playable) {
    if (playable % kCheckpointEvery == 0) {
      Result<Played> copy = Copy(played);
      if (!copy.ok()) return copy.status();
      checkpoints.push_back({playable, std::move(copy.value())});
    }
    if (playable == next.cursor && playable < next.actions.size()) {
      Result<Played> copy = Copy(played);
      if (!copy.ok()) return copy.status();
      at_cursor = std::move(copy.value());
    }
    if (playable == next.actions.size()) break;
    starts.push_back(events.size());
    const Action& action = next.actions[playable];
    CrashReport crash;
    const bool crashes = std::holds_alternative<action::Crash>(action);
    stopped = ApplyAction(played.queue, played.origin, action, playable, crashes ? &crash : nullptr);
    if (!stopped.ok()) {
      starts.pop_back();
      break;
    }
    TakeEvents(played, crashes ? crash.lost.size() + crash.duplicated.size() : SIZE_MAX, &events);
    if (crashes) crashes_found[playable] = std::move(crash);
  }
  if (playable <= next.cursor) {
    if (playable < next.cursor && !clamp) return stopped;  // the core's error for the action the cursor cannot pass
    next.cursor = playable;
    at_cursor = std::move(played);
  }
  const size_t dropped = next.actions.size() - playable;
  next.actions.resize(playable);
  DropOrphanBehaviours(next);

  // Accepted: nothing below can fail.
  const bool had_scenario = generation_ > 0;
  if (dropped > 0 && had_scenario) undo_ = scenario_;
  else undo_.reset();
  dropped_ = dropped > 0 ? std::optional<DroppedActions>({dropped, stopped.message(), false}) : std::nullopt;
  scenario_ = std::move(next);
  live_ = std::move(at_cursor.value());
  checkpoints_ = std::move(checkpoints);
  events_.clear();
  starts_ = std::move(starts);
  crashes_ = std::move(crashes_found);
  first_run_.clear();
  Append(std::move(events));
  authored_ = scenario_.actions;
  dirty_from_ = 0;
  ++generation_;
  return Status::Ok();
}

Result<Scenario> PlayWorld(const Scenario& scenario, size_t limit) {
  RETURN_IF_ERROR(CheckScenario(scenario));  // a behaviour must name a job of the scenario given
  Scenario kept = scenario;
  kept.actions.resize(scenario.cursor);
  DropOrphanBehaviours(kept);  // jobs the script past the cursor would have enqueued are not there
  Result<Queue> made = RunScenario(kept);
  if (!made.ok()) return made.status();
  Queue& q = made.value();
  JournalOrigin origin;  // the world never crashes the process, so no restart is asked of it
  for (size_t n = 0; n < limit; ++n) {
    std::optional<Action> next = NextWorldAction(q, kept.world);
    if (!next.has_value()) break;
    RETURN_IF_ERROR(ApplyAction(q, origin, *next, kept.actions.size()));
    kept.actions.push_back(std::move(*next));
  }
  kept.cursor = scenario.cursor;
  return kept;
}

Status Session::Change(const Scenario& next, bool replay_world) {
  const std::vector<Action> authored = authored_;
  const auto keep_authored = [&](Status s) {
    if (s.ok()) authored_ = authored;
    return s;
  };
  if (!replay_world || next.world == World{} || next.cursor >= next.actions.size()) {
    return keep_authored(Load(next, true));
  }
  Scenario from = next;
  from.cursor = 0;
  from.cursor = std::min(next.cursor, PlayableActions(from).playable);
  Result<Scenario> replayed = PlayWorld(from);  // refuses a bad set-up: nothing changes
  if (!replayed.ok()) return replayed.status();
  const Scenario before = scenario_;
  const size_t old_tail = next.actions.size() - from.cursor;
  const bool same = replayed->actions == next.actions;
  RETURN_IF_ERROR(Load(replayed.value()));
  authored_ = authored;
  if (!same) {
    dropped_ = DroppedActions{old_tail, "", true};
    undo_ = before;
  }
  return Status::Ok();
}

void Session::Append(std::vector<Event>&& fresh) {
  for (Event& e : fresh) {
    e.seq = events_.size() + 1;
    if (CountsAsRun(e.kind)) first_run_.try_emplace(e.id, e.seq);
    events_.push_back(std::move(e));
  }
}

void Session::Record(const Action& action, std::vector<Event>&& fresh) {
  const size_t at = scenario_.cursor;
  if (at < scenario_.actions.size()) {
    dropped_ = DroppedActions{scenario_.actions.size() - at, "", false};
    undo_ = scenario_;
    const size_t keep = EventsAt(at);
    scenario_.actions.resize(at);
    DropOrphanBehaviours(scenario_);
    starts_.resize(at);
    events_.resize(keep);
    for (auto it = first_run_.begin(); it != first_run_.end();) {
      it = it->second > keep ? first_run_.erase(it) : std::next(it);
    }
    for (auto it = crashes_.begin(); it != crashes_.end();) {
      it = it->first >= at ? crashes_.erase(it) : std::next(it);
    }
    while (!checkpoints_.empty() && checkpoints_.back().cursor > at) checkpoints_.pop_back();
    dirty_from_ = std::min(dirty_from_, keep);
  }
  starts_.push_back(events_.size());
  scenario_.actions.push_back(action);
  Append(std::move(fresh));
  scenario_.cursor = scenario_.actions.size();
  if (scenario_.cursor % kCheckpointEvery == 0) {
    // A checkpoint that cannot be taken (the heap budget) only makes seeking slower.
    if (Result<Played> copy = Copy(live_); copy.ok())
      checkpoints_.push_back({scenario_.cursor, std::move(copy.value())});
  }
}

namespace {

// True when two actions make the queue decide the same: equal, or a process
// or settle with the same outcome (and lease) whose error texts differ. An
// error text is recorded, never decided on, so an author's caption for the
// one still tells what the other did.
bool SameDecision(const Action& a, const Action& b) {
  if (a == b) return true;
  if (const auto* x = std::get_if<action::Process>(&a)) {
    const auto* y = std::get_if<action::Process>(&b);
    return y != nullptr && x->outcome == y->outcome;
  }
  if (const auto* x = std::get_if<action::Settle>(&a)) {
    const auto* y = std::get_if<action::Settle>(&b);
    return y != nullptr && x->lease == y->lease && x->outcome == y->outcome;
  }
  return false;
}

}  // namespace

Result<bool> Session::Act(const Action& action) {
  const size_t at = scenario_.cursor;
  if (at < scenario_.actions.size() && scenario_.actions[at] == action) return Seek(at + 1);
  const bool crashes = std::holds_alternative<action::Crash>(action);
  // A crash replaces the queue: try it on a copy, so a refusal changes nothing.
  std::optional<Played> trial;
  if (crashes) {
    Result<Played> copy = Copy(live_);
    if (!copy.ok()) return copy.status();
    trial = std::move(copy.value());
  }
  Played& target = crashes ? *trial : live_;
  CrashReport crash;
  std::vector<Event> fresh;
  if (Status s = ApplyAction(target.queue, target.origin, action, at, crashes ? &crash : nullptr); !s.ok()) {
    if (s.code() == Code::kFailedPrecondition || s.code() == Code::kNotFound) {
      if (std::holds_alternative<action::Replay>(action)) ++refused_replays_;
      if (!crashes) return false;  // nothing to do: the queue is unchanged
    }
    return s;
  }
  TakeEvents(target, crashes ? crash.lost.size() + crash.duplicated.size() : SIZE_MAX, &fresh);
  if (crashes) live_ = std::move(*trial);
  Record(action, std::move(fresh));
  if (crashes) crashes_[at] = std::move(crash);
  return true;
}

Result<bool> Session::ActReport(std::string_view outcome, std::string_view error) {
  Result<Outcome> parsed = ParseOutcome(outcome);
  if (!parsed.ok()) {
    ++refused_;
    return parsed.status();
  }
  Result<bool> acted = Act(action::Process{parsed.value(), std::string(error)});
  if (!acted.ok()) ++refused_;
  return acted;
}

// RedriveAtRate's actions, played on `p` (a copy of the queue at the cursor, the
// script's action `first` next): appended to `out` until `n` entries were
// redriven; false when that takes more than `limit` actions.
Result<bool> Session::PlanRedriveAtRate(Played& p, const World& world, int64_t per_second, const RedriveFilter& only,
                                        size_t n, size_t first, size_t limit, std::vector<Action>* out) {
  const bool has_world = !(world == World{});
  size_t redriven = 0;
  // Applies `a` to `p` as Act would; false when the queue found nothing to do.
  const auto act = [&](const Action& a) -> Result<bool> {
    std::vector<Event> fresh;
    if (Status s = Apply(p, a, first + out->size(), &fresh); !s.ok()) {
      if (s.code() == Code::kFailedPrecondition || s.code() == Code::kNotFound) return false;
      return s;
    }
    for (const Event& e : fresh) {
      if (e.kind == EventKind::kReplayed) ++redriven;
    }
    out->push_back(a);
    return true;
  };
  while (redriven < n) {
    if (out->size() >= limit) return false;
    const int64_t batch = std::min(per_second, static_cast<int64_t>(n - redriven));
    Result<bool> moved = act(action::Redrive{batch, only});
    if (!moved.ok()) return moved.status();
    if (!moved.value()) break;  // none of them is left in quarantine (e.g. dropped at its retention)
    // One virtual second passes.
    if (!has_world) {
      if (Result<bool> r = act(action::Advance{1000}); !r.ok()) return r.status();
      continue;
    }
    const int64_t end = p.queue.stats().now + 1000;
    while (p.queue.stats().now < end) {
      if (out->size() >= limit) return false;
      const int64_t left = end - p.queue.stats().now;
      Action next =
          dlq::NextWorldAction(p.queue, world).value_or(action::Advance{left});  // nothing left: the rest of the second
      if (const auto* a = std::get_if<action::Advance>(&next); a != nullptr && a->ms > left) {
        next = action::Advance{left};
      } else if (std::holds_alternative<action::AdvanceToNext>(next)) {
        const std::optional<int64_t> timer = p.queue.view().NextTimerAt();
        if (!timer || *timer > end) next = action::Advance{left};
      }
      Result<bool> r = act(next);
      if (!r.ok()) return r.status();
      if (!r.value()) break;  // the world's actions always find something to do; this only guards the loop
    }
  }
  return out->size() <= limit;
}

Result<bool> Session::RedriveAtRate(int64_t per_second, const RedriveFilter& only) {
  RETURN_IF_ERROR(kRedrivePerSecondField.Check(per_second));
  const size_t n = live_.queue.view().RedriveCount(only);
  if (n == 0) return false;
  // Planned on a copy first, so a redrive that would pass the limit is refused
  // before anything changes rather than stopped part way (a partial redrive
  // answered as accepted would hide the entries it left behind).
  Result<Played> trial = Copy(live_);
  if (!trial.ok()) return trial.status();
  std::vector<Action> plan;
  Result<bool> fits =
      PlanRedriveAtRate(trial.value(), scenario_.world, per_second, only, n, cursor(), kWorldPlayLimit, &plan);
  if (!fits.ok()) return fits.status();
  if (!fits.value()) {
    const int64_t seconds = static_cast<int64_t>((n + per_second - 1) / per_second);
    return Status::Error(Code::kTooLarge, "a redrive at a rate plays at most " + std::to_string(kWorldPlayLimit) +
                                              " actions, and " + std::to_string(n) + " entries at perSecond " +
                                              std::to_string(per_second) + " take " + std::to_string(seconds) +
                                              " s (a redrive and the second's actions each): nothing was " +
                                              "redriven; raise perSecond or redrive fewer (only)");
  }
  for (const Action& a : plan) {
    Result<bool> r = Act(a);
    if (!r.ok()) return r.status();
  }
  return true;
}

Status Session::AddJob(const JobSpec& job) {
  if (scenario_.cursor > 0) {
    Result<bool> added = Act(action::Enqueue{job.id, job.payload, job.key});
    return added.ok() ? Status::Ok() : added.status();
  }
  Result<Queue> trial = live_.queue.Clone();  // the queue's own checks and words, on a copy
  if (!trial.ok()) return trial.status();
  RETURN_IF_ERROR(trial->Enqueue(job.id, job.payload, job.key));
  Scenario next = scenario_;
  next.jobs.push_back(job);
  return Change(next, false);
}

Result<bool> Session::Seek(size_t cursor) {
  const size_t target = std::min(cursor, scenario_.actions.size());
  if (target == scenario_.cursor) return false;
  if (target == scenario_.cursor + 1) {
    RETURN_IF_ERROR(Apply(live_, scenario_.actions[scenario_.cursor], scenario_.cursor, nullptr));
  } else {
    // From the latest checkpoint at or before the target (checkpoint 0 always
    // exists), or on from the cursor when that is nearer: at most K actions.
    const auto after = std::upper_bound(checkpoints_.begin(), checkpoints_.end(), target,
                                        [](size_t c, const Checkpoint& cp) { return c < cp.cursor; });
    const Checkpoint& cp = *std::prev(after);
    const bool onward = target > scenario_.cursor && cp.cursor <= scenario_.cursor;
    std::optional<Played> from;
    if (!onward) {
      Result<Played> copy = Copy(cp.played);
      if (!copy.ok()) return copy.status();
      from = std::move(copy.value());
    }
    Played& p = onward ? live_ : *from;
    for (size_t i = onward ? scenario_.cursor : cp.cursor; i < target; ++i) {
      RETURN_IF_ERROR(Apply(p, scenario_.actions[i], i, nullptr));
    }
    if (!onward) live_ = std::move(*from);
  }
  scenario_.cursor = target;
  return true;
}

Result<bool> Session::Undo() {
  if (!undo_.has_value()) return false;
  const Scenario before = std::move(*undo_);
  undo_.reset();
  const std::vector<Action> authored = authored_;
  if (Status s = Load(before); !s.ok()) {
    undo_ = before;
    return s;
  }
  authored_ = authored;
  undo_.reset();
  return true;
}

Result<std::optional<Session::CrashPoint>> Session::WriteThatMatters() const {
  Result<std::vector<JournalEntry>> journal = live_.queue.view().Journal();
  if (!journal.ok()) return journal.status();
  std::vector<std::string_view> records;
  records.reserve(journal->size());
  for (const JournalEntry& e : journal.value()) records.push_back(e.record);
  const JournalOrigin& origin = live_.origin;
  if (records.empty()) return std::optional<CrashPoint>();
  Result<std::vector<uint8_t>> ranks =
      Queue::CrashRanks(origin ? std::optional<std::string_view>(*origin) : std::nullopt, records);
  if (!ranks.ok()) return ranks.status();
  std::optional<CrashPoint> best;
  for (size_t k = 0; k < ranks->size(); ++k) {
    const int rank = ranks.value()[k];
    if (rank > (best ? best->rank : 0)) best = CrashPoint{k + 1, rank};
    if (rank == 3) break;
  }
  return best;
}

FailureScope Session::FailureScopeFor(std::span<const Outcome> offered, bool leases) const {
  FailureScope scope = FailureScope::Only({});
  for (Outcome o : offered) {
    if (o != Outcome::kSuccess) scope.Add(ClassOf(o));
  }
  if (leases) scope.Add(FailureClass::kCrash);
  AddWorldFailures(scenario_.world, &scope);
  for (const Action& a : authored_) {
    if (const auto* p = std::get_if<action::Process>(&a); p && p->outcome != Outcome::kSuccess)
      scope.Add(ClassOf(p->outcome));
    if (const auto* s = std::get_if<action::Settle>(&a); s && s->outcome != Outcome::kSuccess)
      scope.Add(ClassOf(s->outcome));
    if (std::holds_alternative<action::Lease>(a)) scope.Add(FailureClass::kCrash);  // a lease it may let run out
  }
  return scope;
}

bool Session::HoldsLeases() const {
  if (!(scenario_.world == World{})) return true;
  return std::any_of(scenario_.actions.begin(), scenario_.actions.end(),
                     [](const Action& a) { return std::holds_alternative<action::Lease>(a); });
}

std::optional<Action> Session::NextWorldAction() const { return dlq::NextWorldAction(live_.queue, scenario_.world); }

bool Session::IsRemovable(std::string_view id) const {
  const auto it = first_run_.find(std::string(id));
  return it == first_run_.end() || it->second > EventsAt(scenario_.cursor);
}

size_t Session::CursorForEvent(uint64_t seq) const {
  if (seq == 0) return 0;
  // Compared as 64 bits: in WebAssembly size_t is 32, and a seq past it must not wrap onto an early action.
  const uint64_t index = seq - 1;
  // The first action whose events start after `index`.
  return static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), index) - starts_.begin());
}

const Event* Session::LastActionEvent() const {
  if (scenario_.cursor == 0) return nullptr;
  const size_t start = starts_[scenario_.cursor - 1];
  return start < EventsAt(scenario_.cursor) ? &events_[start] : nullptr;
}

const CrashReport* Session::LastCrash() const {
  if (scenario_.cursor == 0) return nullptr;
  const auto it = crashes_.find(scenario_.cursor - 1);
  return it == crashes_.end() ? nullptr : &it->second;
}

std::string Session::Explanation() const {
  if (scenario_.cursor == 0) return "";
  if (const CrashReport* crash = LastCrash(); crash != nullptr) return CrashNote(*crash);
  if (const Event* e = LastActionEvent(); e != nullptr) return ExplainEvent(*e);
  return "The clock is at " + std::to_string(live_.queue.stats().now) + " ms; nothing was due on the way.";
}

size_t Session::AuthoredThrough() const {
  const size_t n = std::min(authored_.size(), scenario_.actions.size());
  size_t i = 0;
  while (i < n && SameDecision(authored_[i], scenario_.actions[i])) ++i;
  return i;
}

bool Session::advanced() const { return !link::FitsV1(scenario_); }

std::optional<DroppedActions> Session::TakeDropped() {
  std::optional<DroppedActions> out = std::move(dropped_);
  dropped_.reset();
  return out;
}

size_t Session::TakeDirty() {
  const size_t from = dirty_from_;
  dirty_from_ = SIZE_MAX;
  return from;
}

}  // namespace dlq
