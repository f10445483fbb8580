// Internal to the core: callers use queue.h.
// The Queue's heap-budget cost table: what each thing a queue keeps is charged,
// in one place. Every mutator asks for room with one Need (the most the call can
// add) before it changes anything, and each piece is charged where it is kept.
//
// An event is charged what the event log really takes: EventLog::bytes() grows
// by a packed record's 2 to 4 bytes, or by a whole record (checkpoints and
// records that do not pack), and the queue charges that growth (Queue::Record).
// A room check cannot know which it will be, so it asks for kEventAtMost.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "event_log.h"
#include "job_store.h"
#include "leases.h"

namespace dlq::cost {

// A job: its record with its index slot and ready slot, beyond its strings.
constexpr size_t kJobRecord = sizeof(StoredJob) + 2 * sizeof(void*) + 64;
// A job as kept: its id, payload and key, and its record.
constexpr size_t Job(std::string_view id, std::string_view payload, std::string_view key) {
  return id.size() + payload.size() + key.size() + kJobRecord;
}
// A distinct error text, kept once however many events name it.
constexpr size_t ErrorText(size_t bytes) { return bytes + sizeof(std::string) + 64; }
// A pending timer (a due time, a retention), in its set.
constexpr size_t kTimer = 64;
// A rabbitmq-quorum job's x-death record in its hash map node.
constexpr size_t kXDeath = sizeof(XDeath) + 64;
// A lease: its record in the lease table, and its expiry timer.
constexpr size_t kLease = sizeof(LeaseRecord) + 64;
// A reorder: the jobs it overtook, and its entry.
constexpr size_t Reorder(size_t overtook) { return sizeof(uint32_t) * (overtook + 1) + 64; }
// The most one event can add to the log (a whole record, its stream bytes and a
// checkpoint's index); what it really adds is charged.
constexpr size_t kEventAtMost = EventLog::kMaxBytesPerRecord;
// One journal record as kept: its text and its entry (the write's kind, job,
// check and text; Queue checks that its entry fits).
constexpr size_t kJournalEntry = sizeof(std::string) + 16;
constexpr size_t JournalRecord(size_t text_bytes) { return text_bytes + kJournalEntry; }
// One move's journal records (its put and its removal, or one other write)
// beyond the strings they copy (counters, events, checks): what a room check
// asks for each move.
constexpr size_t kJournalMove = 2048;
// An expiry's error text ("lease-<n> expired after <ms> ms without a settle").
constexpr size_t kExpiryText = 128;

// The most one call can add, counted by kind.
struct Need {
  size_t jobs = 0;         // new jobs
  size_t job_strings = 0;  // their ids, payloads and keys together
  size_t events = 0;
  size_t timers = 0;
  size_t leases = 0;
  size_t error_text = 0;    // a new error text of this many bytes (with `error`)
  bool error = false;       // the call may keep a new error text
  size_t expiry_texts = 0;  // lease expiries, each with its own text
  size_t moves = 0;         // moves (or single writes) journaled, charged only with a journal
};

// The bytes `need` asks for. With a journal, each move's records copy the
// strings it carries (a job's, an error text), so they count twice.
constexpr size_t Bytes(const Need& need, bool journal) {
  const size_t copies = journal ? 2 : 1;
  size_t bytes = need.jobs * kJobRecord + copies * need.job_strings + need.events * kEventAtMost +
                 need.timers * kTimer + need.leases * kLease + need.expiry_texts * ErrorText(kExpiryText);
  if (need.error) bytes += ErrorText(copies * need.error_text);
  if (journal) bytes += need.moves * kJournalMove;
  return bytes;
}

}  // namespace dlq::cost
