// Internal to the core: callers use queue.h.
// The durable image of a queue: what a snapshot holds and what the journal's
// writes change. Internal to the core (queue.h is the public face: Snapshot, Restore, Journal, Recover).
//
// The image is storage, not policy: a table of jobs and one table per place,
// each entry keyed the way its place orders jobs. Nothing stops a job from being
// in two places, or in none: that is exactly what a crash between two writes of
// one move can leave behind, and recovery (ResolveAfterCrash) decides it. A
// queue's live state converts to an image (Queue::ToImage) and back
// (Queue::FromImage, which accepts only an image where every job is in exactly
// one place and every reference points somewhere).
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "event_log.h"
#include "leases.h"
#include "policy.h"

namespace dlq::durable {

// A job's fields as the entry that holds it wrote them. Each entry carries its
// own copy, so the two entries of a half-done move keep what each one said (a
// quarantine entry keeps its context even if a replay had reset the job).
struct JobRow {
  uint32_t attempts = 0;
  int64_t first_attempt_at = 0;
  int64_t last_delay = 0;
  Reason reason = Reason::kNone;
  FailureClass failure_class = FailureClass::kTransient;
  bool alert = false;
  uint32_t last_error = 0;  // an index into Image::errors, 1-based (0 = none)
  uint64_t quarantine_step = 0;
  int64_t arrived_at = 0;
  // The modes' own fields (each 0 or empty outside its mode, and then not written):
  uint32_t stalls = 0;      // bullmq
  int64_t enqueued_at = 0;  // sqs: its first enqueue
  XDeath x_death;           // rabbitmq-quorum
  int64_t ttl_from = 0;     // rabbitmq-quorum with messageTtlMs: when its TTL started (its publish)
  int64_t failed_at = -1;   // under a retry window (sidekiq retry_for): its first failure; -1: none
  uint32_t moves = 0;       // under a move task (sqs moveTaskRate): how often one moved it
  bool operator==(const JobRow&) const = default;
};

// What became of a job that is in no place, on purpose.
// kDiscarded: dead-lettered with no dead-letter exchange (written only when it happened).
enum class Fate : uint8_t { kLive, kDropped, kLost, kDiscarded };

struct ImageJob {
  std::string id, payload, key;
  Fate fate = Fate::kLive;
  bool released = false;
  JobRow row;  // dropped or lost: its fields when it left its last place (a live job's are its entry's)
};

// One entry of a place. `written` is the journal write that put it (0: the
// snapshot); `ends_lease`/`ends_as` name the lease a decision ended, so that
// recovery can end it the same way if the crash came before the lease's own write.
struct Entry {
  uint32_t job = 0;
  JobRow row;
  int64_t due_at = 0;  // delayed: its due time
  uint64_t timer = 0;  // delayed: its timer's sequence; quarantine: its retention timer's (0: none)
  uint64_t written = 0;
  uint32_t ends_lease = 0;
  LeaseState ends_as = LeaseState::kSettled;
};

struct Lease {
  LeaseRecord record;
  Entry entry;  // active leases: the job as the lease wrote it
};

// Counters and the clock, written whole with every journal record.
struct Meta {
  int64_t now = 0;
  uint64_t step = 0, actions = 0, timer_seq = 0;
  int64_t ready_head = 0, ready_tail = 0;  // the next positions before the head and after the tail
  uint64_t arrivals = 0;                   // quarantine arrivals so far (the entries' order)
  bool alarm_raised = false;
  uint64_t expired = 0;
  std::array<uint64_t, 4> jitter{};  // the jitter stream's state
  bool operator==(const Meta&) const = default;
};

struct Reorder {
  uint32_t job = 0;
  std::vector<uint32_t> overtook;
};

struct Image {
  Policy policy;
  Meta meta;
  std::vector<std::string> errors;       // interned error texts, error index k at errors[k - 1]
  std::vector<ImageJob> jobs;            // in enqueue order: a job's number is its index
  std::map<int64_t, Entry> ready;        // by position, head first
  std::map<uint64_t, Entry> delayed;     // by timer sequence
  std::vector<Lease> leases;             // every lease granted; lease n at leases[n - 1]
  std::vector<Entry> completed;          // in completion order
  std::map<uint64_t, Entry> quarantine;  // by arrival
  std::vector<Reorder> reorders;
  std::vector<EventRecord> events;
};

// The durable writes. A move writes its destination first and removes the job
// from its source second (a quarantine under policy.unsafe_quarantine_order:
// the other way round); a record carries the events, error texts and reorders
// recorded since the record before it, and the counters as they are after it.
enum class WriteOp : uint8_t {
  kCreate,    // a queue with this policy (the first write of a queue's first journal)
  kEnqueue,   // a new job, at the ready tail
  kPutReady,  // a job at a ready position (the tail; the head when stalled in place)
  kRemoveReady,
  kPutDelayed,
  kRemoveDelayed,
  kPutLease,  // a lease granted: the attempt is counted
  kEndLease,  // settled or expired
  kPutCompleted,
  kPutQuarantine,
  kRemoveQuarantine,  // replayed, or dropped at its retention
  kReleaseKey,        // a job no longer holds its key
  kClock,             // the clock or counters moved, nothing else
  kSetPayload,        // an operator's patch: a quarantined job's new payload (Queue::Patch)
};
constexpr int kWriteOpCount = 14;
// "create" | "enqueue" | "put-ready" | "remove-ready" | "put-delayed" | "remove-delayed" | "put-lease" |
// "end-lease" | "put-completed" | "put-quarantine" | "remove-quarantine" | "release-key" | "clock" |
// "set-payload".
const char* WriteOpName(WriteOp op);

// One decoded journal record.
struct Write {
  uint64_t seq = 0;    // 1-based within its journal
  uint32_t prev = 0;   // the check of the record before (the first: of the snapshot it follows; 0 after creation)
  uint32_t check = 0;  // its own check
  WriteOp op = WriteOp::kClock;
  Policy policy;         // kCreate
  ImageJob job;          // kEnqueue
  Entry entry;           // the put ops (and kEnqueue's ready entry)
  int64_t position = 0;  // ready: the position; kPutQuarantine, kRemoveQuarantine: the arrival; delayed: the timer seq
  LeaseRecord lease{};   // kPutLease (its number is lease_number)
  uint32_t lease_number = 0;                   // kPutLease, kEndLease
  LeaseState ended_as = LeaseState::kSettled;  // kEndLease
  bool dropped = false;  // kRemoveQuarantine: at its retention (the job's evidence is gone), not replayed
  bool discarded =
      false;  // kRemoveReady, kEndLease: the job left for no place (no dead-letter exchange); entry.row: as it left
  uint32_t job_number = 0;  // kReleaseKey, kSetPayload (whose new payload is job.payload)
  Meta meta;
  std::vector<std::string> errors;
  std::vector<EventRecord> events;
  std::vector<Reorder> reorders;
};

}  // namespace dlq::durable
