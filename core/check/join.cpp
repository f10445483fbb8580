#include "join.h"

namespace dlq::check {

namespace {

std::string_view LastArnSegment(std::string_view id) {
  if (id.rfind("arn:", 0) != 0) return id;
  size_t colon = id.rfind(':');
  return colon == std::string_view::npos ? id : id.substr(colon + 1);
}

// Where a terminal failure of `q` goes, as a queue among the files read.
const QueueConfig* DeadLetterTarget(const QueueIndex& queues, const QueueConfig& q) {
  if (q.terminal != Terminal::kDeadLetter) return nullptr;
  if (!q.dead_letter_to.empty()) return queues.Resolve(q.dead_letter_to);
  for (const std::string& id : q.dead_letter_reaches) {
    if (const QueueConfig* target = queues.Resolve(id)) return target;
  }
  return nullptr;
}

}  // namespace

QueueIndex::QueueIndex(const Inventory& inventory) {
  for (const QueueConfig& q : inventory.queues) {
    by_id_.emplace(q.id, &q);
    auto [it, fresh] = by_name_.emplace(q.name, &q);
    if (!fresh) it->second = nullptr;  // ambiguous: two queues of that name
  }
}

const QueueConfig* QueueIndex::Resolve(std::string_view id) const {
  if (auto it = by_id_.find(id); it != by_id_.end()) return it->second;
  auto it = by_name_.find(LastArnSegment(id));
  return it != by_name_.end() ? it->second : nullptr;
}

std::vector<const Unknown*> UnknownsAbout(const QueueConfig& queue, std::string_view field) {
  std::vector<const Unknown*> out;
  for (const Unknown& u : queue.unknowns) {
    if (u.field.empty() || u.field == field) out.push_back(&u);
  }
  return out;
}

const JoinedQueue* Joined::Find(const QueueConfig* queue) const {
  auto it = index.find(queue);
  return it != index.end() ? &queues[it->second] : nullptr;
}

Result<Joined> Join(const Inventory& inventory) {
  Joined joined;
  std::unordered_map<std::string_view, const QueueConfig*> seen;
  for (const QueueConfig& q : inventory.queues) {
    auto [it, fresh] = seen.emplace(q.id, &q);
    if (!fresh) {
      return Status::InvalidArgument(LocationText(q.at) + ": queue " + q.id + " is declared twice (first at " +
                                     LocationText(it->second->at) + ")");
    }
    if (Status s = Policy::Check(q.policy); !s.ok()) {
      return Status::InvalidArgument(LocationText(q.at) + ": queue " + q.name +
                                     ": the policy read is refused: " + s.message());
    }
    JoinedQueue j;
    j.queue = &q;
    j.worst = WorstCasePath(q.policy);
    joined.index[&q] = joined.queues.size();
    joined.queues.push_back(std::move(j));
  }
  const QueueIndex queues(inventory);
  // An alarm names its queue by id, name or ARN: each name it may mean, to the alarm.
  std::unordered_map<std::string_view, bool> alarmed;
  for (const DepthAlarm& alarm : inventory.alarms) {
    alarmed[alarm.queue] = true;
    alarmed[LastArnSegment(alarm.queue)] = true;
  }
  for (JoinedQueue& j : joined.queues) {
    const QueueConfig& q = *j.queue;
    j.dlq = DeadLetterTarget(queues, q);
    if (j.dlq == &q) j.dlq = nullptr;  // a queue that dead-letters into itself has no DLQ
    if (j.dlq != nullptr) {
      j.dlq_name = j.dlq->name;
    } else if (q.terminal == Terminal::kDeadLetter) {
      j.dlq_name = q.dead_letter_to;
    }
    j.alarmed = alarmed.count(q.id) != 0 || alarmed.count(q.name) != 0;
  }
  // Sources, once every target is known. Two queues that dead-letter into each other (a TTL
  // retry queue routing back) are a source and its DLQ, the source being the one declared
  // first: the later one's route back is the loop DLQ-DEAD-END reports, not a source's DLQ.
  for (size_t i = 0; i < joined.queues.size(); ++i) {
    const JoinedQueue& j = joined.queues[i];
    if (j.dlq == nullptr) continue;
    const size_t target = joined.index[j.dlq];
    if (joined.queues[target].dlq == j.queue && target < i) continue;
    joined.queues[target].sources.push_back(j.queue);
  }
  return joined;
}

}  // namespace dlq::check
