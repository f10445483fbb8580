// Recovery after a crash: the last snapshot's image, the journal's first k
// writes applied to it as a store would (no policy), then what a half-done move
// left behind decided, then a queue built from the result.
#include <algorithm>
#include <unordered_set>

#include "crc32.h"
#include "durable_text.h"
#include "queue_core.h"
#include "text.h"

namespace dlq {

using durable::Entry;
using durable::Image;
using durable::Write;
using durable::WriteOp;

namespace {

// A job dead-lettered with no dead-letter exchange: in no place on purpose, its row as it left.
void Discard(durable::ImageJob& job, const durable::JobRow& row) {
  job.fate = durable::Fate::kDiscarded;
  job.row = row;
}

// Why a put (kEnqueue, kPut…) cannot follow the image, or "" once applied.
// `ids` holds every id in image.jobs (kept up to date here).
std::string ApplyPut(Image& image, const Write& w, Entry e, std::unordered_set<std::string>& ids) {
  const size_t n = image.jobs.size();
  const auto job_ok = [&](uint32_t job) { return job < n && image.jobs[job].fate == durable::Fate::kLive; };
  switch (w.op) {
    case WriteOp::kEnqueue: {
      if (ids.count(w.job.id) != 0) return "it enqueues id " + QuoteShort(w.job.id) + " again";
      if (image.ready.count(w.position) != 0) return "its ready position is taken";
      ids.insert(w.job.id);
      e.job = static_cast<uint32_t>(n);
      image.jobs.push_back(w.job);
      image.ready.emplace(w.position, e);
      return "";
    }
    case WriteOp::kPutReady:
      if (!job_ok(e.job) || !image.ready.emplace(w.position, e).second) return "its ready entry cannot be put";
      return "";
    case WriteOp::kPutDelayed:
      if (!job_ok(e.job) || !image.delayed.emplace(static_cast<uint64_t>(w.position), e).second) {
        return "its delayed entry cannot be put";
      }
      return "";
    case WriteOp::kPutLease: {
      if (!job_ok(w.lease.job) || w.lease_number != image.leases.size() + 1) return "its lease number is not the next";
      durable::Lease l;
      l.record = w.lease;
      l.entry = e;
      image.leases.push_back(l);
      return "";
    }
    case WriteOp::kPutCompleted:
      if (!job_ok(e.job)) return "its completed entry names a missing job";
      image.completed.push_back(e);
      return "";
    case WriteOp::kPutQuarantine:
      if (!job_ok(e.job) || !image.quarantine.emplace(static_cast<uint64_t>(w.position), e).second) {
        return "its quarantine entry cannot be put";
      }
      return "";
    default: return "";
  }
}

// Why any other write (a removal, a lease's end, a key's release, a patch, the
// clock) cannot follow the image, or "" once applied.
std::string ApplyOther(Image& image, const Write& w, const Entry& e) {
  const size_t n = image.jobs.size();
  const auto job_ok = [&](uint32_t job) { return job < n && image.jobs[job].fate == durable::Fate::kLive; };
  switch (w.op) {
    case WriteOp::kCreate: return "only a queue's first record creates it";
    case WriteOp::kRemoveReady: {
      const auto it = image.ready.find(w.position);
      if (it == image.ready.end()) return "it removes a ready entry that is not there";
      image.jobs[it->second.job].row = it->second.row;  // what a job lost after this would keep
      if (w.discarded) Discard(image.jobs[it->second.job], e.row);
      image.ready.erase(it);
      return "";
    }
    case WriteOp::kRemoveDelayed: {
      const auto it = image.delayed.find(static_cast<uint64_t>(w.position));
      if (it == image.delayed.end()) return "it removes a delayed entry that is not there";
      image.jobs[it->second.job].row = it->second.row;
      image.delayed.erase(it);
      return "";
    }
    case WriteOp::kEndLease: {
      if (w.lease_number > image.leases.size() ||
          image.leases[w.lease_number - 1].record.state != LeaseState::kActive) {
        return "it ends a lease that is not active";
      }
      durable::Lease& l = image.leases[w.lease_number - 1];
      l.record.state = w.ended_as;
      image.jobs[l.record.job].row = l.entry.row;
      if (w.discarded) Discard(image.jobs[l.record.job], e.row);
      return "";
    }
    case WriteOp::kRemoveQuarantine: {
      const auto it = image.quarantine.find(static_cast<uint64_t>(w.position));
      if (it == image.quarantine.end()) return "it removes a quarantine entry that is not there";
      if (w.dropped) image.jobs[it->second.job].fate = durable::Fate::kDropped;
      image.jobs[it->second.job].row = it->second.row;
      image.quarantine.erase(it);
      return "";
    }
    case WriteOp::kReleaseKey:
      if (w.job_number >= n) return "it releases a missing job";
      image.jobs[w.job_number].released = true;
      return "";
    case WriteOp::kSetPayload:
      if (!job_ok(w.job_number)) return "it patches a missing job";
      image.jobs[w.job_number].payload = w.job.payload;
      return "";
    case WriteOp::kClock: return "";
    default: return "";
  }
}

bool IsPut(WriteOp op) {
  return op == WriteOp::kEnqueue || op == WriteOp::kPutReady || op == WriteOp::kPutDelayed ||
         op == WriteOp::kPutLease || op == WriteOp::kPutCompleted || op == WriteOp::kPutQuarantine;
}

// Applies one decoded write to the image, or says why it cannot follow what is
// there (a record from another journal, or out of order).
// `ids` holds every id in image.jobs (kept up to date here).
Status ApplyWrite(Image& image, const Write& w, const std::string& argument, std::unordered_set<std::string>& ids) {
  Entry e = w.entry;
  e.written = w.seq;
  const std::string why = IsPut(w.op) ? ApplyPut(image, w, e, ids) : ApplyOther(image, w, e);
  if (!why.empty()) {
    return Status::InvalidArgument(argument + " does not follow the snapshot and the records before it: " + why);
  }
  image.meta = w.meta;
  for (const std::string& t : w.errors) image.errors.push_back(t);
  for (const EventRecord& ev : w.events) image.events.push_back(ev);
  for (const durable::Reorder& r : w.reorders) image.reorders.push_back(r);
  return Status::Ok();
}

// Write `w` (journal[i], named `argument`) follows the write checked `prev`.
Status CheckFollows(const Write& w, size_t i, uint32_t prev, const std::string& argument) {
  if (w.seq == i + 1 && w.prev == prev) return Status::Ok();
  return Status::InvalidArgument(argument + " does not follow " +
                                 (i == 0 ? std::string("this snapshot") : "journal[" + std::to_string(i - 1) + "]") +
                                 ": it is write " + std::to_string(w.seq) + " of another history");
}

constexpr uint32_t kNoJob = UINT32_MAX;

// The one place entry a write puts (delta 1) or removes (-1), and whose it is
// (kNoJob: none), read before it applies; `quarantine` when the entry is there.
struct Touch {
  uint32_t job = kNoJob;
  int64_t delta = 0;
  bool quarantine = false;
};

Touch TouchedBy(const Image& image, const Write& w) {
  Touch t;
  const auto removed = [&](const auto& place, auto key) {
    const auto it = place.find(key);
    if (it != place.end()) t.job = it->second.job, t.delta = -1;
  };
  switch (w.op) {
    case WriteOp::kEnqueue: t.job = static_cast<uint32_t>(image.jobs.size()), t.delta = 1; break;
    case WriteOp::kPutReady:
    case WriteOp::kPutDelayed:
    case WriteOp::kPutCompleted: t.job = w.entry.job, t.delta = 1; break;
    case WriteOp::kPutQuarantine: t.job = w.entry.job, t.delta = 1, t.quarantine = true; break;
    case WriteOp::kRemoveReady: removed(image.ready, w.position); break;
    case WriteOp::kRemoveDelayed: removed(image.delayed, static_cast<uint64_t>(w.position)); break;
    case WriteOp::kRemoveQuarantine:
      removed(image.quarantine, static_cast<uint64_t>(w.position)), t.quarantine = true;
      break;
    case WriteOp::kPutLease: t.job = w.lease.job, t.delta = 1; break;
    case WriteOp::kEndLease:
      if (w.lease_number >= 1 && w.lease_number <= image.leases.size()) {
        t.job = image.leases[w.lease_number - 1].record.job, t.delta = -1;
      }
      break;
    case WriteOp::kCreate:
    case WriteOp::kReleaseKey:
    case WriteOp::kSetPayload:
    case WriteOp::kClock: break;
  }
  return t;
}

// Where a job was found after the writes.
struct Found {
  Place place;
  uint64_t key;  // ready: the position (as bits); delayed: the timer; leased: the lease number; completed: the index;
                 // quarantine: the arrival
  const Entry* entry;
};

// Decides every job a half-done move left in two places or in none. Returns, per
// job, the place it was kept in when it was in two (kLost: it was in none).
std::vector<std::pair<uint32_t, Place>> ResolveAfterCrash(Image& image) {
  std::vector<std::vector<Found>> found(image.jobs.size());
  for (const auto& [pos, e] : image.ready) found[e.job].push_back({Place::kReady, static_cast<uint64_t>(pos), &e});
  for (const auto& [seq, e] : image.delayed) found[e.job].push_back({Place::kDelayed, seq, &e});
  for (size_t k = 0; k < image.leases.size(); ++k) {
    const durable::Lease& l = image.leases[k];
    if (l.record.state == LeaseState::kActive) found[l.record.job].push_back({Place::kLeased, k + 1, &l.entry});
  }
  for (size_t k = 0; k < image.completed.size(); ++k) {
    found[image.completed[k].job].push_back({Place::kCompleted, k, &image.completed[k]});
  }
  for (const auto& [arrival, e] : image.quarantine) found[e.job].push_back({Place::kQuarantined, arrival, &e});

  std::vector<std::pair<uint32_t, Place>> decided;
  std::vector<size_t> completed_drops;
  for (uint32_t job = 0; job < image.jobs.size(); ++job) {
    std::vector<Found>& places = found[job];
    if (image.jobs[job].fate != durable::Fate::kLive) continue;
    if (places.empty()) {
      image.jobs[job].fate = durable::Fate::kLost;
      decided.push_back({job, Place::kLost});
      continue;
    }
    if (places.size() == 1) continue;
    // Quarantine wins (the final failure was committed); otherwise the newer write.
    const auto rank = [](const Found& f) {
      return std::make_pair(f.place == Place::kQuarantined ? 1 : 0, f.entry->written);
    };
    const Found winner = *std::max_element(places.begin(), places.end(),
                                           [&](const Found& a, const Found& b) { return rank(a) < rank(b); });
    for (const Found& f : places) {
      if (f.entry == winner.entry) continue;
      switch (f.place) {
        case Place::kReady: image.ready.erase(static_cast<int64_t>(f.key)); break;
        case Place::kDelayed: image.delayed.erase(f.key); break;
        case Place::kLeased: {
          LeaseRecord& r = image.leases[static_cast<size_t>(f.key - 1)].record;
          r.state = winner.entry->ends_lease == f.key ? winner.entry->ends_as : LeaseState::kExpired;
          break;
        }
        case Place::kCompleted: completed_drops.push_back(static_cast<size_t>(f.key)); break;
        case Place::kQuarantined: image.quarantine.erase(f.key); break;
        case Place::kDropped:
        case Place::kLost:
        case Place::kDiscarded: break;
      }
    }
    decided.push_back({job, winner.place});
  }
  std::sort(completed_drops.rbegin(), completed_drops.rend());
  for (const size_t k : completed_drops)
    image.completed.erase(image.completed.begin() + static_cast<std::ptrdiff_t>(k));
  return decided;
}

}  // namespace

Status QueueCore::CheckRecoveryInput(std::optional<std::string_view> snapshot,
                                     const std::vector<std::string_view>& journal) {
  // Sizes before anything is read.
  RETURN_IF_ERROR(CheckSize("journal", kMaxJournalRecords, journal.size(), "items"));
  size_t journal_bytes = 0;
  for (const std::string_view r : journal) journal_bytes += r.size();
  RETURN_IF_ERROR(CheckSize("journal (its records together)", kMaxJournalBytes, journal_bytes));
  if (snapshot) {
    RETURN_IF_ERROR(CheckSize("snapshot", kMaxSnapshotBytes, snapshot->size()));
  }
  if (!snapshot && journal.empty()) {
    return Status::InvalidArgument(
        "journal must hold at least its create record when recovering from creation (snapshot null), got an empty "
        "journal");
  }
  return Status::Ok();
}

Status QueueCore::StartRecovery(std::optional<std::string_view> snapshot, const std::vector<std::string_view>& journal,
                                Base* out) {
  // The base: the snapshot's image, or the queue the first record creates.
  if (snapshot) {
    Result<Image> base = durable::DecodeSnapshot(*snapshot);
    if (!base.ok()) return base.status();
    out->image = std::move(base.value());
    // Every reference the snapshot holds is checked before any write is applied to it.
    Image copy = out->image;
    if (Result<QueueCore> checked = FromImage(std::move(copy)); !checked.ok()) return checked.status();
    out->prev = Crc32(*snapshot);
    out->first = 0;
  } else {
    Result<Write> create = durable::DecodeWrite(journal[0], "journal[0]");
    if (!create.ok()) return create.status();
    if (create->op != WriteOp::kCreate || create->seq != 1 || create->prev != 0) {
      return Status::InvalidArgument(
          "journal[0] must create the queue (a journal since creation starts with its create record), got a " +
          std::string(durable::WriteOpName(create->op)) + " record");
    }
    Result<QueueCore> fresh = Create(create->policy);
    if (!fresh.ok()) return fresh.status();
    out->image = fresh->ToImage();
    out->image.meta = create->meta;
    out->prev = create->check;
    out->first = 1;
  }
  return Status::Ok();
}

Result<Recovery> QueueCore::Recover(std::optional<std::string_view> snapshot,
                                    const std::vector<std::string_view>& journal, const RecoverOptions& options) {
  RETURN_IF_ERROR(CheckRecoveryInput(snapshot, journal));
  const auto length = static_cast<int64_t>(journal.size());
  const int64_t k = options.crash_after.value_or(length);
  const int64_t least = snapshot ? 0 : 1;
  if (k < least || k > length) {
    return Status::OutOfRange("crashAfter must be an integer from " + std::to_string(least) + " to " +
                              std::to_string(length) + " (the journal's length" +
                              (snapshot ? std::string(")") : std::string("; write 1 creates the queue)")) + ", got " +
                              std::to_string(k));
  }
  Base base;
  RETURN_IF_ERROR(StartRecovery(snapshot, journal, &base));
  Image& image = base.image;
  uint32_t prev = base.prev;
  const size_t first = base.first;

  // The writes that reached the disk: the first k, and maybe half of the next.
  Recovery out{Queue(nullptr), {}, {}, 0, false};  // its queue is set last
  std::unordered_set<std::string> ids;
  for (const durable::ImageJob& j : image.jobs) ids.insert(j.id);
  const auto count = static_cast<size_t>(k);
  for (size_t i = first; i < count; ++i) {
    const std::string argument = "journal[" + std::to_string(i) + "]";
    Result<Write> w = durable::DecodeWrite(journal[i], argument);
    if (!w.ok()) return w.status();
    RETURN_IF_ERROR(CheckFollows(w.value(), i, prev, argument));
    RETURN_IF_ERROR(ApplyWrite(image, w.value(), argument, ids));
    prev = w->check;
    ++out.applied;
  }
  out.applied += first;
  if (options.torn && count < journal.size()) {
    // A crash in the middle of writing record k+1: half of it reached the disk.
    const std::string_view torn = journal[count].substr(0, journal[count].size() / 2);
    Result<Write> w = durable::DecodeWrite(torn, "journal[" + std::to_string(count) + "]");
    if (w.ok())
      return Status::FailedPrecondition("a torn record passed its check");  // cannot happen: the check is cut off
    out.torn_discarded = true;
  }

  // What the crash left half-done, decided; then the queue, and its timeline says so.
  const std::vector<std::pair<uint32_t, Place>> decided = ResolveAfterCrash(image);
  Result<QueueCore> queue = FromImage(std::move(image));
  if (!queue.ok()) return queue.status();
  QueueCore& q = queue.value();
  RETURN_IF_ERROR(HeapBudget::CheckRoom(decided.size() * cost::kEventAtMost, "recover"));
  for (const auto& [job, place] : decided) {
    if (place == Place::kLost) {
      q.Record(EventKind::kLost, job);
      out.lost.emplace_back(q.jobs_[job].id());
    } else {
      q.Record(EventKind::kKeptOnce, job).ref = static_cast<uint32_t>(place);
      out.duplicated.emplace_back(q.jobs_[job].id());
    }
  }
  q.journal_.marks.events = q.events_.size();
  // Its journal is empty and follows its own state (as if restored from its snapshot).
  Result<std::string> text = q.SnapshotText();
  q.journal_.StartAfter(text.ok() ? Crc32(text.value()) : 0);
  out.queue = Queue(std::make_unique<QueueCore>(std::move(q)));
  return out;
}

Result<std::vector<uint8_t>> QueueCore::CrashRanks(std::optional<std::string_view> snapshot,
                                                   const std::vector<std::string_view>& journal) {
  RETURN_IF_ERROR(CheckRecoveryInput(snapshot, journal));
  Base base;
  RETURN_IF_ERROR(StartRecovery(snapshot, journal, &base));
  Image& image = base.image;

  // Each job's places as ResolveAfterCrash finds them (ready, delayed, active
  // leases, completed, quarantine), and how many live jobs it would decide.
  struct Count {
    int64_t places = 0, quarantined = 0;
  };
  std::vector<Count> counts(image.jobs.size());
  for (const auto& [pos, e] : image.ready) ++counts[e.job].places;
  for (const auto& [seq, e] : image.delayed) ++counts[e.job].places;
  for (const durable::Lease& l : image.leases) {
    if (l.record.state == LeaseState::kActive) ++counts[l.record.job].places;
  }
  for (const Entry& e : image.completed) ++counts[e.job].places;
  for (const auto& [arrival, e] : image.quarantine) ++counts[e.job].places, ++counts[e.job].quarantined;
  int64_t lost = 0, kept_from_quarantine = 0, doubled = 0;
  const auto classify = [&](uint32_t job, int64_t sign) {
    if (job >= counts.size() || image.jobs[job].fate != durable::Fate::kLive) return;
    const Count& c = counts[job];
    if (c.places == 0) lost += sign;
    if (c.places >= 2) doubled += sign, kept_from_quarantine += c.quarantined > 0 ? sign : 0;
  };
  for (uint32_t job = 0; job < counts.size(); ++job) classify(job, +1);
  const auto rank = [&]() -> uint8_t { return lost > 0 ? 3 : kept_from_quarantine > 0 ? 2 : doubled > 0 ? 1 : 0; };

  std::vector<uint8_t> ranks;
  ranks.reserve(journal.size());
  if (base.first == 1) ranks.push_back(rank());  // write 1 created the queue
  std::unordered_set<std::string> ids;
  for (const durable::ImageJob& j : image.jobs) ids.insert(j.id);
  uint32_t prev = base.prev;
  for (size_t i = base.first; i < journal.size(); ++i) {
    const std::string argument = "journal[" + std::to_string(i) + "]";
    Result<Write> w = durable::DecodeWrite(journal[i], argument);
    if (!w.ok()) return w.status();
    RETURN_IF_ERROR(CheckFollows(w.value(), i, prev, argument));
    const Touch t = TouchedBy(image, w.value());
    const uint32_t job = t.job;
    if (job != kNoJob) classify(job, -1);
    RETURN_IF_ERROR(ApplyWrite(image, w.value(), argument, ids));  // refuses what cannot follow
    if (w->op == WriteOp::kEnqueue) counts.emplace_back();
    if (job != kNoJob) {
      counts[job].places += t.delta;
      if (t.quarantine) counts[job].quarantined += t.delta;
      classify(job, +1);
    }
    prev = w->check;
    ranks.push_back(rank());
  }
  return ranks;
}

}  // namespace dlq
