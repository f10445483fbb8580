// Size limits: every string and batch a caller hands the core has a stated
// maximum, checked before anything else (a call past one is refused with
// TooLarge and changes nothing), so that no single call can exhaust memory. The
// WebAssembly build's memory is capped at 2 GB; the JS API measures strings
// against these same numbers (read from the core) before copying them in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "status.h"

namespace dlq {

constexpr size_t kMaxIdBytes = 1024;
constexpr size_t kMaxKeyBytes = 1024;                    // an ordering key
constexpr size_t kMaxPayloadBytes = size_t{16} << 20;    // 16 MiB
constexpr size_t kMaxErrorTextBytes = size_t{64} << 10;  // 64 KiB
constexpr size_t kMaxOutcomeBytes = 64;                  // an outcome's name; the longest is 9 bytes
constexpr size_t kMaxOutcomeLetters = size_t{1} << 22;   // one ProcessMany call (4,194,304 attempts)
constexpr size_t kMaxBatchBytes = size_t{256} << 20;     // ids + payloads of one EnqueueMany
constexpr size_t kMaxBatchJobs = size_t{1} << 24;        // jobs of one EnqueueMany
constexpr size_t kMaxScenarioTextBytes = 8192;           // a scenario link
constexpr size_t kMaxScenarioItems = size_t{1} << 20;    // jobs, and actions, of one scenario object
constexpr size_t kMaxSnapshotBytes = size_t{128} << 20;  // a snapshot text
// A journal handed to one recovery: at most kMaxJournalRecords records and
// kMaxJournalBytes of them together. The two describe the same journal: a
// record averages about kJournalRecordBytes (a job with a short id and payload
// writes records of 150 to 470 bytes; a 250,000-job queue's 1,250,001 records
// average 264), so a journal of such jobs reaches both limits together, and
// one of big payloads reaches the byte limit first. 384 MiB also leaves the JS
// API room to pass a whole journal as one string (V8 holds at most 2^29 - 24
// characters) and the WebAssembly memory room for the copies a recovery makes.
// A queue's own journal within them recovers (docs/snapshot-format.md, "Errors
// and limits").
constexpr size_t kJournalRecordBytes = 256;
constexpr size_t kMaxJournalRecords = (size_t{3} << 20) / 2;                   // 1,572,864 records
constexpr size_t kMaxJournalBytes = kMaxJournalRecords * kJournalRecordBytes;  // 384 MiB
static_assert(kMaxJournalBytes == size_t{384} << 20, "the journal limits agree at 256 bytes a record");

// One row per limit, in a fixed order; the JS API reads this table rather than
// copying the numbers.
struct SizeLimit {
  const char* key;  // the JS name, e.g. "idBytes"
  size_t value;
  const char* unit;  // "bytes" or "items"
};
constexpr SizeLimit kSizeLimits[] = {
    {"idBytes", kMaxIdBytes, "bytes"},
    {"keyBytes", kMaxKeyBytes, "bytes"},
    {"payloadBytes", kMaxPayloadBytes, "bytes"},
    {"errorTextBytes", kMaxErrorTextBytes, "bytes"},
    {"outcomeBytes", kMaxOutcomeBytes, "bytes"},
    {"outcomeLetters", kMaxOutcomeLetters, "bytes"},
    {"batchBytes", kMaxBatchBytes, "bytes"},
    {"batchJobs", kMaxBatchJobs, "items"},
    {"scenarioTextBytes", kMaxScenarioTextBytes, "bytes"},
    {"scenarioItems", kMaxScenarioItems, "items"},
    {"snapshotBytes", kMaxSnapshotBytes, "bytes"},
    {"journalRecords", kMaxJournalRecords, "items"},
    {"journalBytes", kMaxJournalBytes, "bytes"},
};

// TooLarge: "<name> must be at most <limit> <unit>, got <given> <unit>".
Status TooLarge(std::string_view name, size_t limit, size_t given, std::string_view unit = "bytes");
// TooLarge for an input refused by a lower bound of its size, before it is measured
// (a string's UTF-16 length bounds its UTF-8 bytes from below, so a string far past
// the limit is refused without a scan): "<name> must be at most <limit> <unit>, got
// at least <at_least> <unit>".
Status TooLargeAtLeast(std::string_view name, size_t limit, size_t at_least, std::string_view unit = "bytes");

// OK if given <= limit, else TooLarge as above.
Status CheckSize(std::string_view name, size_t limit, size_t given, std::string_view unit = "bytes");

}  // namespace dlq
