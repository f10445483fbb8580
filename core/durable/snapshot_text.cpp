#include "durable_text.h"

#include <charconv>
#include <limits>

#include "crc32.h"
#include "link_text.h"
#include "schema.h"
#include "registry.h"
#include "size_limits.h"
#include "text.h"
#include "policy_line.h"
#include "text_lines.h"

namespace dlq::durable {

using namespace text_lines;  // NOLINT: the shared lines (text_lines.h)

// ---- snapshots -----------------------------------------------------------------

Result<std::string> EncodeSnapshot(const Image& image, size_t limit) {
  std::string text;
  Out o(text);
  const auto over = [&] { return text.size() > limit; };
  const auto refuse = [&] { return TooLarge("snapshot", limit, text.size()); };
  o.Word("dlq-snapshot").U(kSnapshotVersion).Line();
  PutPolicy(o, image.policy, true);
  PutMeta(o, image.meta);
  o.Line();
  for (const std::string& e : image.errors) {
    o.Word("error").Str(e).Line();
    if (over()) return refuse();
  }
  for (const ImageJob& j : image.jobs) {
    o.Word("job").Str(j.id).Str(j.payload).Str(j.key).Word(FateName(j.fate)).B(j.released);
    if (j.fate != Fate::kLive) PutRow(o, j.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const auto& [pos, e] : image.ready) {
    o.Word("ready").I(pos).U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const auto& [seq, e] : image.delayed) {
    o.Word("delayed").U(seq).I(e.due_at).U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const Lease& l : image.leases) {
    const LeaseRecord& r = l.record;
    o.Word("lease").U(r.job).I(r.leased_at).I(r.expires_at).U(r.timer).Word(LeaseStateName(r.state));
    if (r.state == LeaseState::kActive) PutRow(o, l.entry.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const Entry& e : image.completed) {
    o.Word("completed").U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const auto& [arrival, e] : image.quarantine) {
    o.Word("quarantine").U(arrival).U(e.timer).U(e.job);
    PutRow(o, e.row);
    o.Line();
    if (over()) return refuse();
  }
  for (const Reorder& r : image.reorders) {
    PutReorder(o, r);
    o.Line();
    if (over()) return refuse();
  }
  for (const EventRecord& e : image.events) {
    PutEvent(o, e);
    o.Line();
    if (over()) return refuse();
  }
  const std::string check = Hex8(Crc32(text));  // of everything before the end line
  o.Word("end").Word(check).Line();
  if (over()) return refuse();
  return text;
}

namespace {

// A snapshot's first line and its end line: what it is and its version (before
// the checksum, so that a newer snapshot says so), then whole and unaltered (the
// last line is "end <crc32 of everything before it>"). *first_end is the first
// line's end, *body everything before the end line.
Status CheckSnapshotFrame(std::string_view text, size_t* first_end, std::string_view* body) {
  const auto invalid = [](const std::string& why) { return Status::Error(Code::kInvalidSnapshot, why); };
  if (text.substr(0, kSnapshotMagic.size()) != kSnapshotMagic) {
    return invalid("snapshot is not a dlq-lab snapshot: it must start with \"dlq-snapshot <version>\", got " +
                   QuoteShort(text.substr(0, 24)));
  }
  *first_end = text.find('\n');
  if (*first_end == std::string_view::npos) return invalid("snapshot is truncated: it ends inside its first line");
  {
    In in(text.substr(kSnapshotMagic.size(), *first_end - kSnapshotMagic.size()), "snapshot line 1");
    uint64_t version = 0;
    if (Status s = in.Int("a format version", &version, uint64_t{1}); !s.ok() || !in.clean_end()) {
      return invalid("snapshot line 1 must be \"dlq-snapshot <version>\", got " +
                     QuoteShort(text.substr(0, *first_end)));
    }
    if (version > kSnapshotVersion) {
      return Status::Error(Code::kUnsupportedVersion, "snapshot is format version " + std::to_string(version) +
                                                          "; this build reads version " +
                                                          std::to_string(kSnapshotVersion) + " and older");
    }
  }
  if (text.size() < 2 || text.back() != '\n')
    return invalid("snapshot is truncated: it does not end with its end line");
  const size_t last_start = text.rfind('\n', text.size() - 2) + 1;
  *body = text.substr(0, last_start);
  const std::string_view last = text.substr(last_start, text.size() - 1 - last_start);
  if (last.substr(0, 4) != "end ") return invalid("snapshot is truncated: its last line is not its end line");
  if (last.substr(4) != Hex8(Crc32(*body))) {
    return invalid("snapshot is damaged: its checksum does not match its text (truncated or altered)");
  }
  return Status::Ok();
}

// The sections after the policy and the meta line, each optional, in this order.
enum Section { kError, kJob, kReady, kDelayed, kLease, kCompleted, kQuarantine, kReorder, kEvent };
constexpr const char* kSectionHeads[] = {"error",     "job",        "ready",   "delayed", "lease",
                                         "completed", "quarantine", "reorder", "event"};

// A place's entry: a position (ready), a timer (delayed), an arrival (quarantine) keys it.
Status GetKeyedEntry(In& in, Section section, Image* image) {
  Entry e;
  if (section == kReady) {
    int64_t p = 0;
    RETURN_IF_ERROR(in.Int("a position", &p));
    RETURN_IF_ERROR(in.Int("job", &e.job));
    RETURN_IF_ERROR(GetRow(in, &e.row));
    if (!image->ready.emplace(p, e).second) return in.Error("a position not used before", std::to_string(p));
  } else if (section == kDelayed) {
    uint64_t seq = 0;
    RETURN_IF_ERROR(in.Int("a timer sequence", &seq));
    RETURN_IF_ERROR(in.Int("dueAt", &e.due_at, int64_t{0}, kMaxTimeMs));
    RETURN_IF_ERROR(in.Int("job", &e.job));
    RETURN_IF_ERROR(GetRow(in, &e.row));
    e.timer = seq;
    if (!image->delayed.emplace(seq, e).second) return in.Error("a timer not used before", std::to_string(seq));
  } else {
    uint64_t arrival = 0;
    RETURN_IF_ERROR(in.Int("an arrival", &arrival));
    RETURN_IF_ERROR(in.Int("a timer sequence", &e.timer));
    RETURN_IF_ERROR(in.Int("job", &e.job));
    RETURN_IF_ERROR(GetRow(in, &e.row));
    if (!image->quarantine.emplace(arrival, e).second)
      return in.Error("an arrival not used before", std::to_string(arrival));
  }
  return Status::Ok();
}

// One line of section `section`, its head read.
Status GetSectionLine(In& in, Section section, Image* image) {
  switch (section) {
    case kError: {
      std::string& e = image->errors.emplace_back();
      RETURN_IF_ERROR(in.Str("an error text", &e));
      if (e.empty()) return in.Error("a non-empty error text", "\"\"");
      return Status::Ok();
    }
    case kJob: {
      ImageJob& j = image->jobs.emplace_back();
      RETURN_IF_ERROR(in.Str("an id", &j.id));
      RETURN_IF_ERROR(in.Str("a payload", &j.payload));
      RETURN_IF_ERROR(in.Str("a key", &j.key));
      RETURN_IF_ERROR(in.Name("live, dropped, lost or discarded", kFateCount, FateName, &j.fate));
      RETURN_IF_ERROR(in.Bool("released", &j.released));
      if (j.fate != Fate::kLive) RETURN_IF_ERROR(GetRow(in, &j.row));
      return Status::Ok();
    }
    case kReady:
    case kDelayed:
    case kQuarantine: return GetKeyedEntry(in, section, image);
    case kLease: {
      Lease& l = image->leases.emplace_back();
      LeaseRecord& r = l.record;
      RETURN_IF_ERROR(in.Int("job", &r.job));
      RETURN_IF_ERROR(in.Int("leasedAt", &r.leased_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("expiresAt", &r.expires_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("a timer sequence", &r.timer));
      RETURN_IF_ERROR(in.Name("active, settled or expired", kLeaseStateCount, LeaseStateName, &r.state));
      l.entry.job = r.job;
      if (r.state == LeaseState::kActive) RETURN_IF_ERROR(GetRow(in, &l.entry.row));
      return Status::Ok();
    }
    case kCompleted: {
      Entry& e = image->completed.emplace_back();
      RETURN_IF_ERROR(in.Int("job", &e.job));
      return GetRow(in, &e.row);
    }
    case kReorder: return GetReorder(in, &image->reorders.emplace_back());
    case kEvent: return GetEvent(in, &image->events.emplace_back());
  }
  return Status::Ok();
}

}  // namespace

Result<Image> DecodeSnapshot(std::string_view text) {
  size_t first_end = 0;
  std::string_view body;
  RETURN_IF_ERROR(CheckSnapshotFrame(text, &first_end, &body));
  // Line by line.
  Image image;
  size_t pos = first_end + 1, line_no = 1;
  In current("", "");
  const auto next_line = [&]() -> In* {
    ++line_no;
    const size_t end = pos < body.size() ? body.find('\n', pos) : std::string_view::npos;
    const std::string_view line = end == std::string_view::npos ? std::string_view() : body.substr(pos, end - pos);
    pos = end == std::string_view::npos ? body.size() : end + 1;
    current = In(line, std::string("snapshot line ").append(std::to_string(line_no)));
    return &current;
  };
  RETURN_IF_ERROR(GetPolicy([&] { return next_line(); }, &image.policy));
  RETURN_IF_ERROR(GetMeta(*next_line(), &image.meta));
  RETURN_IF_ERROR(End(current));
  int section = kError;
  while (pos < body.size()) {
    In& in = *next_line();
    const std::string_view head = in.Next();
    int found = -1;
    for (int k = section; k <= kEvent; ++k) {
      if (head == kSectionHeads[k]) found = k;
    }
    if (found < 0)
      return in.Error(
          "a line of a later section (error, job, ready, delayed, lease, completed, quarantine, reorder, event, in "
          "this order)",
          head);
    section = found;
    RETURN_IF_ERROR(GetSectionLine(in, static_cast<Section>(section), &image));
    RETURN_IF_ERROR(End(in));
  }
  return image;
}

}  // namespace dlq::durable
