#include "join.h"

#include <map>
#include <string_view>

namespace dlq::check {

namespace {

std::string At(const Location& at) { return at.file + ":" + std::to_string(at.line); }

std::string_view LastArnSegment(std::string_view id) {
  if (id.rfind("arn:", 0) != 0) return id;
  size_t colon = id.rfind(':');
  return colon == std::string_view::npos ? id : id.substr(colon + 1);
}

const QueueConfig* UniqueByName(const Inventory& inventory, std::string_view name) {
  const QueueConfig* found = nullptr;
  for (const QueueConfig& q : inventory.queues) {
    if (q.name != name) continue;
    if (found != nullptr) return nullptr;  // ambiguous: two queues of that name
    found = &q;
  }
  return found;
}

// Where a terminal failure of `q` goes, as a queue among the files read.
const QueueConfig* DeadLetterTarget(const Inventory& inventory, const QueueConfig& q) {
  if (q.terminal != Terminal::kDeadLetter) return nullptr;
  if (!q.dead_letter_to.empty()) return ResolveQueue(inventory, q.dead_letter_to);
  for (const std::string& id : q.dead_letter_reaches) {
    if (const QueueConfig* target = ResolveQueue(inventory, id)) return target;
  }
  return nullptr;
}

bool AlarmWatches(const DepthAlarm& alarm, const QueueConfig& q) {
  return alarm.queue == q.id || alarm.queue == q.name || LastArnSegment(alarm.queue) == q.name;
}

}  // namespace

const QueueConfig* ResolveQueue(const Inventory& inventory, std::string_view id) {
  for (const QueueConfig& q : inventory.queues) {
    if (q.id == id) return &q;
  }
  return UniqueByName(inventory, LastArnSegment(id));
}

std::vector<const Unknown*> UnknownsAbout(const QueueConfig& queue, std::string_view field) {
  std::vector<const Unknown*> out;
  for (const Unknown& u : queue.unknowns) {
    if (u.field.empty() || u.field == field) out.push_back(&u);
  }
  return out;
}

const JoinedQueue* Joined::Find(const QueueConfig* queue) const {
  for (const JoinedQueue& j : queues) {
    if (j.queue == queue) return &j;
  }
  return nullptr;
}

Result<Joined> Join(const Inventory& inventory) {
  Joined joined;
  std::map<std::string_view, const QueueConfig*> by_id;
  std::map<const QueueConfig*, size_t> index;
  for (const QueueConfig& q : inventory.queues) {
    auto [it, fresh] = by_id.emplace(q.id, &q);
    if (!fresh) {
      return Status::InvalidArgument(At(q.at) + ": queue " + q.id + " is declared twice (first at " +
                                     At(it->second->at) + ")");
    }
    if (Status s = Policy::Check(q.policy); !s.ok()) {
      return Status::InvalidArgument(At(q.at) + ": queue " + q.name + ": the policy read is refused: " + s.message());
    }
    JoinedQueue j;
    j.queue = &q;
    j.worst = WorstCasePath(q.policy);
    index[&q] = joined.queues.size();
    joined.queues.push_back(std::move(j));
  }
  for (JoinedQueue& j : joined.queues) {
    const QueueConfig& q = *j.queue;
    j.dlq = DeadLetterTarget(inventory, q);
    if (j.dlq == &q) j.dlq = nullptr;  // a queue that dead-letters into itself has no DLQ
    if (j.dlq != nullptr) {
      j.dlq_name = j.dlq->name;
      joined.queues[index[j.dlq]].sources.push_back(&q);
    } else if (q.terminal == Terminal::kDeadLetter) {
      j.dlq_name = q.dead_letter_to;
    }
    for (const DepthAlarm& alarm : inventory.alarms) {
      if (AlarmWatches(alarm, q)) j.alarmed = true;
    }
  }
  return joined;
}

}  // namespace dlq::check
