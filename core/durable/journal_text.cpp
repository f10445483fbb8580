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

const char* WriteOpName(WriteOp op) {
  switch (op) {
    case WriteOp::kCreate: return "create";
    case WriteOp::kEnqueue: return "enqueue";
    case WriteOp::kPutReady: return "put-ready";
    case WriteOp::kRemoveReady: return "remove-ready";
    case WriteOp::kPutDelayed: return "put-delayed";
    case WriteOp::kRemoveDelayed: return "remove-delayed";
    case WriteOp::kPutLease: return "put-lease";
    case WriteOp::kEndLease: return "end-lease";
    case WriteOp::kPutCompleted: return "put-completed";
    case WriteOp::kPutQuarantine: return "put-quarantine";
    case WriteOp::kRemoveQuarantine: return "remove-quarantine";
    case WriteOp::kReleaseKey: return "release-key";
    case WriteOp::kClock: return "clock";
    case WriteOp::kSetPayload: return "set-payload";
  }
  return "?";
}

// ---- journal records -----------------------------------------------------------

std::string EncodeWrite(const Write& w, uint32_t* check) {
  std::string text;
  text.reserve(256);
  Out o(text);
  o.U(w.seq).Word(Hex8(w.prev)).Word(WriteOpName(w.op));
  const Entry& e = w.entry;
  switch (w.op) {
    case WriteOp::kCreate: PutPolicy(o, w.policy, false); break;
    case WriteOp::kEnqueue:
      o.Str(w.job.id).Str(w.job.payload).Str(w.job.key).I(w.position);
      PutRow(o, e.row);
      break;
    case WriteOp::kPutReady:
      o.I(w.position).U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kPutDelayed:
      o.I(w.position).I(e.due_at).U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kPutLease:
      o.U(w.lease_number).U(w.lease.job).I(w.lease.leased_at).I(w.lease.expires_at).U(w.lease.timer);
      PutRow(o, e.row);
      break;
    case WriteOp::kPutCompleted:
      o.U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kPutQuarantine:
      o.I(w.position).U(e.timer).U(e.job);
      PutRow(o, e.row);
      PutEnds(o, e);
      break;
    case WriteOp::kRemoveReady:
    case WriteOp::kRemoveDelayed:
      o.I(w.position);
      if (w.discarded) {  // only when it happened, so earlier journals read as written
        o.Word("discarded");
        PutRow(o, e.row);  // the job as it left (its attempt counted)
      }
      break;
    case WriteOp::kEndLease:
      o.U(w.lease_number).Word(LeaseStateName(w.ended_as));
      if (w.discarded) {
        o.Word("discarded");
        PutRow(o, e.row);
      }
      break;
    case WriteOp::kRemoveQuarantine: o.I(w.position).Word(w.dropped ? "dropped" : "replayed"); break;
    case WriteOp::kReleaseKey: o.U(w.job_number); break;
    case WriteOp::kSetPayload: o.U(w.job_number).Str(w.job.payload); break;
    case WriteOp::kClock: break;
  }
  PutMeta(o, w.meta);
  for (const std::string& t : w.errors) o.Word("error").Str(t);
  for (const EventRecord& ev : w.events) PutEvent(o, ev);
  for (const Reorder& r : w.reorders) PutReorder(o, r);
  *check = Crc32(text);
  o.Word("check").Word(Hex8(*check));
  return text;
}

namespace {

// A removal's fields (or a key's release, a payload's fix), after its op.
Status GetRemoveOp(In& in, Write* w) {
  Entry& e = w->entry;
  switch (w->op) {
    case WriteOp::kRemoveReady:
      RETURN_IF_ERROR(in.Int("a position", &w->position));
      if (in.Peek() == "discarded") {
        in.Next();
        w->discarded = true;
        RETURN_IF_ERROR(GetRow(in, &e.row));
      }
      break;
    case WriteOp::kRemoveDelayed: RETURN_IF_ERROR(in.Int("a timer sequence", &w->position, int64_t{0})); break;
    case WriteOp::kEndLease:
      RETURN_IF_ERROR(in.Int("a lease number", &w->lease_number, uint32_t{1}));
      RETURN_IF_ERROR(in.Name("settled or expired", kLeaseStateCount, LeaseStateName, &w->ended_as));
      if (w->ended_as == LeaseState::kActive) return in.Error("settled or expired", "active");
      if (in.Peek() == "discarded") {
        in.Next();
        w->discarded = true;
        RETURN_IF_ERROR(GetRow(in, &e.row));
      }
      break;
    case WriteOp::kRemoveQuarantine: {
      RETURN_IF_ERROR(in.Int("an arrival", &w->position, int64_t{0}));
      const std::string_view how = in.Next();
      if (how != "dropped" && how != "replayed") return in.Error("replayed or dropped", how);
      w->dropped = how == "dropped";
      break;
    }
    case WriteOp::kReleaseKey: RETURN_IF_ERROR(in.Int("job", &w->job_number)); break;
    case WriteOp::kSetPayload:
      RETURN_IF_ERROR(in.Int("job", &w->job_number));
      RETURN_IF_ERROR(in.Str("a payload", &w->job.payload));
      break;
    default: break;
  }
  return Status::Ok();
}

// A write's own fields, after its op: what each op carries (EncodeWrite).
Status GetWriteOp(In& in, Write* w) {
  Entry& e = w->entry;
  switch (w->op) {
    case WriteOp::kCreate: {
      RETURN_IF_ERROR(GetPolicy([&] { return &in; }, &w->policy));
      break;
    }
    case WriteOp::kEnqueue:
      RETURN_IF_ERROR(in.Str("an id", &w->job.id));
      RETURN_IF_ERROR(in.Str("a payload", &w->job.payload));
      RETURN_IF_ERROR(in.Str("a key", &w->job.key));
      RETURN_IF_ERROR(in.Int("a position", &w->position));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      break;
    case WriteOp::kPutReady:
      RETURN_IF_ERROR(in.Int("a position", &w->position));
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      break;
    case WriteOp::kPutDelayed:
      RETURN_IF_ERROR(in.Int("a timer sequence", &w->position, int64_t{0}));
      RETURN_IF_ERROR(in.Int("dueAt", &e.due_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      e.timer = static_cast<uint64_t>(w->position);
      break;
    case WriteOp::kPutLease:
      RETURN_IF_ERROR(in.Int("a lease number", &w->lease_number, uint32_t{1}));
      RETURN_IF_ERROR(in.Int("job", &w->lease.job));
      RETURN_IF_ERROR(in.Int("leasedAt", &w->lease.leased_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("expiresAt", &w->lease.expires_at, int64_t{0}, kMaxTimeMs));
      RETURN_IF_ERROR(in.Int("a timer sequence", &w->lease.timer));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      w->lease.state = LeaseState::kActive;
      e.job = w->lease.job;
      break;
    case WriteOp::kPutCompleted:
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      break;
    case WriteOp::kPutQuarantine:
      RETURN_IF_ERROR(in.Int("an arrival", &w->position, int64_t{0}));
      RETURN_IF_ERROR(in.Int("a timer sequence", &e.timer));
      RETURN_IF_ERROR(in.Int("job", &e.job));
      RETURN_IF_ERROR(GetRow(in, &e.row));
      RETURN_IF_ERROR(GetEnds(in, &e));
      break;
    case WriteOp::kRemoveReady:
    case WriteOp::kRemoveDelayed:
    case WriteOp::kEndLease:
    case WriteOp::kRemoveQuarantine:
    case WriteOp::kReleaseKey:
    case WriteOp::kSetPayload: return GetRemoveOp(in, w);
    case WriteOp::kClock: break;
  }
  return Status::Ok();
}

// The meta line's fields, then the write's errors, events and reorders (in this order).
Status GetWriteTail(In& in, Write* w) {
  RETURN_IF_ERROR(GetMeta(in, &w->meta));
  while (!in.done()) {
    const std::string_view head = in.Next();
    if (head == "error" && w->events.empty() && w->reorders.empty()) {
      std::string& t = w->errors.emplace_back();
      RETURN_IF_ERROR(in.Str("an error text", &t));
      if (t.empty()) return in.Error("a non-empty error text", "\"\"");
    } else if (head == "event" && w->reorders.empty()) {
      RETURN_IF_ERROR(GetEvent(in, &w->events.emplace_back()));
    } else if (head == "reorder") {
      RETURN_IF_ERROR(GetReorder(in, &w->reorders.emplace_back()));
    } else {
      return in.Error("error, event or reorder (in this order) or the check", head);
    }
  }
  return Status::Ok();
}

}  // namespace

Result<Write> DecodeWrite(std::string_view record, const std::string& argument) {
  const auto damaged = [&](const std::string& why) {
    return Status::InvalidArgument(argument + " must be a journal record of this lab, " + why);
  };
  const size_t at = record.rfind(" check ");
  if (at == std::string_view::npos || record.size() != at + 7 + 8) {
    return damaged("ending \"check <crc32>\"; it is cut short or not a record");
  }
  const uint32_t check = Crc32(record.substr(0, at));
  if (record.substr(at + 7) != Hex8(check)) return damaged("whose check matches its text; it is torn or altered");
  Write w;
  w.check = check;
  In in(record.substr(0, at), argument);
  const auto fail = [&](const Status& s) { return Status::InvalidArgument(s.message()); };
  const auto run = [&]() -> Status {
    RETURN_IF_ERROR(in.Int("a sequence number", &w.seq, uint64_t{1}));
    const std::string_view prev = in.Next();
    if (prev.size() != 8) return in.Error("the previous record's check (8 hex digits)", prev);
    for (const char c : prev) {
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return in.Error("the previous record's check (8 hex digits)", prev);
      w.prev = w.prev * 16 + static_cast<uint32_t>(d);
    }
    RETURN_IF_ERROR(in.Name("a write", kWriteOpCount, WriteOpName, &w.op));
    RETURN_IF_ERROR(GetWriteOp(in, &w));
    RETURN_IF_ERROR(GetWriteTail(in, &w));
    return Status::Ok();
  };
  if (Status s = run(); !s.ok()) return fail(s);
  return w;
}

}  // namespace dlq::durable
