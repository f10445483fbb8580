// Internal to the core: callers use queue.h.
// The text forms of the durable image (durable.h): the snapshot and the journal
// record. Both are documented field by field in docs/snapshot-format.md; internal
// to the core (queue.h is the public face: Snapshot, Restore, Journal, Recover).
//
// Canonical: one image has exactly one snapshot text, one write exactly one
// record text. Readers are strict (they read only what the writers write) and
// check every number's range, every name and every string's encoding; they do
// not check references between tables (Queue::FromImage and ApplyWrite do).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "durable.h"
#include "status.h"

namespace dlq::durable {

constexpr uint32_t kSnapshotVersion = 1;
constexpr std::string_view kSnapshotMagic = "dlq-snapshot ";

// The snapshot text of `image`, ending "end <crc32>\n". TooLarge ("snapshot ...")
// as soon as it would pass `limit` bytes.
Result<std::string> EncodeSnapshot(const Image& image, size_t limit);

// Checks in this order, so that each refusal says the most useful thing:
//   not starting "dlq-snapshot <n>\n"  -> InvalidSnapshot ("not a dlq-lab snapshot")
//   n > kSnapshotVersion               -> UnsupportedVersion
//   no "end <crc>" line, or a crc that does not match -> InvalidSnapshot (truncated or altered)
//   any line out of form               -> InvalidSnapshot, naming the line
Result<Image> DecodeSnapshot(std::string_view text);

// The record text of `write` (one line, no newline) with its sequence number,
// the check of the record before it and its own check (filled into *check).
std::string EncodeWrite(const Write& write, uint32_t* check);

// The write a record holds. InvalidArgument naming `argument` (e.g.
// "journal[3]") when the text is not a well-formed record with a matching check.
Result<Write> DecodeWrite(std::string_view record, const std::string& argument);

}  // namespace dlq::durable
