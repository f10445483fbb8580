// Session: the one model behind a playground. It owns a scenario (set-up jobs, a
// script of actions, a cursor), the queue at the cursor, the whole script's
// timeline, and checkpoints of the queue every kCheckpointEvery actions, so
// moving the cursor replays at most that many actions. A page renders what the
// session says and keeps no copy of history: every user action is one call here
// (act, seek, load, change, undo) followed by one read of the state.
//
// The timeline is the script's: events_[0, EventsAt(c)) are what happened when
// c actions are applied, and the rest is the script's future. A crash action
// replaces the queue by the one recovered from its journal; the timeline keeps
// what happened before the crash and goes on with the recovered queue's events
// (its "lost" and "kept-once" first). Event seq numbers are the session's own:
// 1, 2, 3, … along this timeline.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "event.h"
#include "queue.h"
#include "scenario.h"
#include "status.h"

namespace dlq {

// What a change dropped from the script (see Session::TakeDropped).
struct DroppedActions {
  size_t count = 0;
  std::string reason;     // the core's refusal that ended what still plays; "" when replaced by an edit
  bool replayed = false;  // the world played the script past the cursor again under the new set-up
};

// What changed since a page's last answer (Session::TakeChanges).
struct SessionChanges {
  size_t events_from = SIZE_MAX;  // the first event index that changed; SIZE_MAX: none
  std::optional<DroppedActions> dropped;
};

// What a page asks of a view: how many timeline events it holds, how much of
// each place it draws (Ready as a head and a tail around one gap when longer).
struct ViewAsk {
  size_t from = 0;
  size_t list_cap = 100;
  size_t ready_head = 24, ready_tail = 8;
};

// A Ready job as the page draws it: the job, and whether it can be removed
// (Session::IsRemovable); a gap row stands for `gap` jobs not drawn.
struct ShownJob {
  JobView job;
  bool removable = false;
  size_t gap = 0;  // > 0: a gap row (job empty)
};

// The session's side of what a page draws at the cursor (Session::View). The
// other places and the queue's reads are the queue's own (session.queue()).
struct SessionView {
  size_t cursor = 0;
  size_t length = 0;
  uint64_t generation = 0;
  bool advanced = false;
  bool leases = false;
  size_t authored_through = 0;
  bool can_undo = false;
  size_t events_from = 0;  // events [events_from, event_count) are new to the page
  size_t event_count = 0;
  size_t events_at_cursor = 0;
  const Event* last_event = nullptr;    // into the session: valid until its next change
  const Action* last_action = nullptr;  // the action before the cursor, or null at 0
  std::string explanation;
  const CrashReport* last_crash = nullptr;
  std::optional<DroppedActions> dropped;
  std::vector<ShownJob> ready;
  uint64_t refused = 0;
  uint64_t refused_replays = 0;
};

// RedriveAtRate's rate: entries a virtual second.
constexpr IntegerField kRedrivePerSecondField{"perSecond", 1, 1000};

class Session {
 public:
  static constexpr size_t kCheckpointEvery = 64;
  // At most this many actions are played by the world after a set-up change.
  static constexpr size_t kWorldPlayLimit = 2000;

  // A session over `scenario` (as Load without clamp). Refused: RunScenario's Status.
  static Result<Session> Create(const Scenario& scenario);

  Session(Session&&) noexcept = default;
  Session& operator=(Session&&) noexcept = default;

  // Replaces everything with `scenario`, which becomes the authored script (the
  // one captions belong to). The actions past the cursor keep only what still
  // plays; the rest is dropped (TakeDropped says why) and Undo brings it back.
  // A cursor past what plays is refused with the core's error for that action,
  // or with `clamp` moves back to what plays. Refused: nothing changes.
  Status Load(const Scenario& scenario, bool clamp = false);

  // A set-up change (policy, world, jobs) at the cursor: Load with clamp, the
  // authored script kept. With a world, the actions past the cursor were played
  // by the world under the old set-up, so it plays them again under the new one
  // (at most kWorldPlayLimit); what happened up to the cursor stays. Without
  // `replay_world` the script is kept as far as it still plays, world or not.
  Status Change(const Scenario& scenario, bool replay_world = true);

  // Applies `action` at the cursor. If it is the script's next action, the
  // cursor steps along it; otherwise the redo tail is dropped (Undo brings it
  // back) and the action is recorded. False when the queue found nothing to do
  // (nothing ready, no such job in quarantine, no timer: FailedPrecondition or
  // NotFound from the core); any other refusal is the Status. Either way nothing
  // changes then.
  Result<bool> Act(const Action& action);

  // A worker's report as the page sends it, text: the core parses the outcome
  // (ParseOutcome; the error text's size is the queue's check). A refusal is
  // counted (refused()) and changes nothing else: the next job keeps its place
  // and its attempts. An accepted report is Act(Process{outcome, error}).
  Result<bool> ActReport(std::string_view outcome, std::string_view error);
  // Reports ActReport refused since the session was made (a goal's "refused"); a
  // load or change keeps the count, as a refusal is not part of any script.
  uint64_t refused() const { return refused_; }
  // Replays Act answered false since the session was made (the job was not in
  // quarantine: nothing changed), a goal's "refused-replays"; kept like refused().
  uint64_t refused_replays() const { return refused_replays_; }

  // An operator's redrive at a rate: the entries `only` takes now (n of them)
  // go back `per_second` at a time, one batch per virtual second. Each batch is
  // Act(Redrive{min(per_second, left), only}); then one second passes: with a
  // world (scenario().world is not the default, none), the world's next actions
  // are acted while they stay within that second, an Advance or AdvanceToNext
  // that would cross its end replaced by an Advance to exactly the end (and
  // when the world has nothing left to do, an Advance to the end); without a
  // world, Act(Advance{1000}). It repeats until n entries were redriven: an
  // entry that fails back into quarantine meanwhile does not extend n, and
  // entries that leave quarantine otherwise (retention) end it early. At most
  // kWorldPlayLimit actions in all: it is played on a copy first, and one that
  // would take more is refused before anything changes (TooLarge, naming the
  // entries, perSecond and the seconds they take), never stopped part way.
  // Everything is recorded as ordinary actions (Redrive, Lease, Settle,
  // Advance, AdvanceToNext), so links, journals and snapshots carry nothing
  // new; as with Act, the redo tail is dropped once (Undo brings it back), and
  // Back steps over the recorded actions one at a time.
  // Refused first, changing nothing: per_second outside kRedrivePerSecondField
  // (OutOfRange, "perSecond must be an integer from 1 to 1000, got 0"). False
  // (nothing changes) when no entry matches `only`. A refusal of a later action
  // (the clock's or the heap's limits) is returned, with the batches before it kept.
  Result<bool> RedriveAtRate(int64_t per_second, const RedriveFilter& only = {});

  // Adds a job at the cursor: at cursor 0 a set-up job (the script kept as far
  // as it still plays, the authored script too), else an Enqueue action. A bad
  // or taken id is refused with the queue's own Status; nothing changes then.
  Status AddJob(const JobSpec& job);

  // Set-up edits, each one whole operation (session_edits.cpp), so a page makes
  // one call with what it edits, never a round trip of the whole scenario. Each
  // is Change over the scenario at the cursor (the authored script kept);
  // refused: Change's Status, and nothing changes.
  //
  // The scenario's policy replaced by `policy`; with `replay_world` and a world,
  // the world plays the script past the cursor again under it.
  Status SetPolicy(const Policy& policy, bool replay_world = true);
  // The scenario's world replaced by `world` (World{}: nobody plays), which then
  // plays the script past the cursor again; CheckScenario checks it with the jobs.
  Status SetWorld(const World& world);
  // A job and the world's behaviour for it as one change, which CheckScenario
  // checks whole: at cursor 0 a set-up job, else an Enqueue action at the
  // cursor, the script past it replaced. A behaviour the world had for that id
  // is replaced; the world keeps its other fields.
  Status AddJob(const JobSpec& job, const Behaviour& behaviour);
  // Removes job `id` with the world's behaviour for it: the set-up job of that
  // id, else the script's first Enqueue of it (the cursor moves back one when
  // that action was before it); the script is then kept as far as it plays.
  // NotFound, naming `id`, when neither has it.
  Status RemoveJob(std::string_view id);

  // Moves the cursor to `cursor` (clamped to 0 … length); false when it is there already.
  Result<bool> Seek(size_t cursor);

  // Brings back the script from before the last change that dropped actions; false when there is none.
  Result<bool> Undo();
  bool can_undo() const { return undo_.has_value(); }

  // The crash point that matters most in the journal of the queue at the cursor
  // (since its creation or its last restart), found in one pass
  // (Queue::CrashRanks): the first write after which a crash loses a job
  // (rank 3), else the first that leaves one in quarantine and another place
  // (2), else the first that leaves one in two places (1); nullopt when no write
  // loses or doubles a job. FailedPrecondition when the policy keeps no journal.
  struct CrashPoint {
    uint64_t after = 0;
    int rank = 0;
  };
  Result<std::optional<CrashPoint>> WriteThatMatters() const;

  // The failure classes this session's playground can meet, for its bounded path
  // (backoff.h, FailureScope): those of the outcomes its reader can report
  // (`offered`), a crash when its attempts hold leases (`leases`: one that runs
  // out is a crash), what its world produces (AddWorldFailures) and what its
  // authored script reports. The page says what it offers; the core decides
  // which classes, and so which terms, that brings.
  FailureScope FailureScopeFor(std::span<const Outcome> offered, bool leases) const;
  // True when this session's attempts hold leases: a world plays (its workers
  // lease and settle), or the script leases (a Lease action anywhere in it). A
  // retry schedule then counts each attempt's lease, as the run does (schedule.h).
  bool HoldsLeases() const;

  // What the world does next at the cursor (player.h), or nullopt.
  std::optional<Action> NextWorldAction() const;

  // True while job `id` has not been attempted (nor replayed) by the cursor.
  bool IsRemovable(std::string_view id) const;

  const Scenario& scenario() const { return scenario_; }
  const Queue& queue() const { return live_.queue; }
  size_t cursor() const { return scenario_.cursor; }
  size_t length() const { return scenario_.actions.size(); }

  // The whole script's timeline, and how many of its events have happened at `cursor`.
  const std::vector<Event>& events() const { return events_; }
  size_t EventsAt(size_t cursor) const { return cursor < starts_.size() ? starts_[cursor] : events_.size(); }
  // The cursor right after the action that wrote event `seq` (1-based).
  size_t CursorForEvent(uint64_t seq) const;

  // The last applied action's first event, or null (cursor 0, or it wrote none).
  const Event* LastActionEvent() const;
  // What the last applied action recovered, if it was a crash; else null.
  const CrashReport* LastCrash() const;
  // One sentence on what the last applied action did ("" at cursor 0): its first
  // event's explanation, a crash's recovery, or where the clock moved to.
  std::string Explanation() const;

  // How many actions from the first make the queue decide as the authored
  // script's do (equal, or differing only in a recorded error text): an
  // author's caption for position i holds while i <= AuthoredThrough(), i.e.
  // while the history is the authored one.
  size_t AuthoredThrough() const;

  // True when link format v1 cannot carry the scenario (the clock, classes,
  // keys, a world, a crash: link.h's FitsV1).
  bool advanced() const;

  // What the last change dropped, once (then nullopt until another drops some).
  std::optional<DroppedActions> TakeDropped();
  // The first event index that changed since the last call (SIZE_MAX: none).
  size_t TakeDirty();
  // Both of the above, taken once by whoever answers a page, before it reads View.
  SessionChanges TakeChanges() { return {TakeDirty(), TakeDropped()}; }

  // What a page draws at the cursor, in one const read (session_view.cpp): the
  // page's `ask` shapes it, `changes` (TakeChanges) says what is new to it.
  SessionView View(const ViewAsk& ask, const SessionChanges& changes) const;
  // The share link of the scenario (FormatScenario), or the Status a reader of
  // that text would give (ParseScenario's: its size limit, its strings).
  Result<std::string> Link() const;
  // Counts loads and changes: the policy and the world change only with one.
  uint64_t generation() const { return generation_; }

 private:
  // A queue as the script played it, with what a crash restarts it from and
  // how many of its events the timeline already holds.
  struct Played {
    Queue queue;
    JournalOrigin origin;
    size_t seen = 0;
  };
  struct Checkpoint {
    size_t cursor = 0;
    Played played;
  };

  explicit Session(Played live) : live_(std::move(live)) {}

  static Result<Played> Copy(const Played& p);
  static Result<bool> PlanRedriveAtRate(Played& p, const World& world, int64_t per_second, const RedriveFilter& only,
                                        size_t n, size_t first, size_t limit, std::vector<Action>* out);
  // Applies script action `index` to `p`; its new events are appended to `out` when given.
  static Status Apply(Played& p, const Action& action, size_t index, std::vector<Event>* out);
  // After `p` took an action: its events the timeline does not hold yet.
  static void TakeEvents(Played& p, size_t decided, std::vector<Event>* out);

  void Append(std::vector<Event>&& fresh);
  void Record(const Action& action, std::vector<Event>&& fresh);

  Scenario scenario_;
  std::vector<Action> authored_;
  Played live_;
  std::vector<Checkpoint> checkpoints_;  // at cursors 0, K, 2K, … of the script
  std::vector<Event> events_;
  std::vector<size_t> starts_;                           // starts_[i]: where action i's events begin
  std::unordered_map<std::string, uint64_t> first_run_;  // id -> seq of its first attempt, lease or replay
  std::optional<Scenario> undo_;
  std::optional<DroppedActions> dropped_;
  std::unordered_map<size_t, CrashReport> crashes_;  // what each crash action of the script did, by index
  size_t dirty_from_ = 0;
  uint64_t generation_ = 0;
  uint64_t refused_ = 0;
  uint64_t refused_replays_ = 0;
};

// `scenario` with the world's run as the script past the cursor: the actions up
// to the cursor are kept, then the world plays on from there (at most `limit`
// more actions), and those actions become the rest of the script. The cursor
// stays; behaviours of jobs only the dropped part enqueued go with it. Refused:
// CheckScenario's Status for the scenario given, else RunScenario's for the
// kept part.
Result<Scenario> PlayWorld(const Scenario& scenario, size_t limit = Session::kWorldPlayLimit);

}  // namespace dlq
