// The join (check.h's flow): the inventories of every file as one graph, before any rule
// runs. Each queue's dead-letter target is resolved across files (by id; else an ARN's or a
// name's unique match), the queues that are DLQs are recognised from the graph (some source
// dead-letters into them), depth alarms are attached to the queue they watch, and each
// queue's bounded path (WorstCasePath, backoff.h) is computed once.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "backoff.h"
#include "check.h"
#include "model.h"

namespace dlq::check {

struct JoinedQueue {
  const QueueConfig* queue = nullptr;
  // Its DLQ when the target is among the files read (dead_letter_to, or the one queue a
  // RabbitMQ dead-letter exchange reaches first); nullptr otherwise.
  const QueueConfig* dlq = nullptr;
  std::string dlq_name;                     // the DLQ as printed: its name, or the target id when not read
  std::vector<const QueueConfig*> sources;  // queues that dead-letter into this one
  bool is_dlq() const { return !sources.empty(); }
  bool alarmed = false;  // a depth alarm watches it
  WorstCase worst;       // WorstCasePath(queue->policy)
};

struct Joined {
  std::vector<JoinedQueue> queues;                       // in inventory order
  std::unordered_map<const QueueConfig*, size_t> index;  // a queue's place in `queues`
  const JoinedQueue* Find(const QueueConfig* queue) const;
};

// Joins `inventory`. Refuses (InvalidArgument naming file and line) two queues with one id,
// and a queue whose policy the core refuses (a reader's error: Policy::Check's message).
Result<Joined> Join(const Inventory& inventory);

// The queues of an inventory by id and by name, to resolve a reference to one of them.
class QueueIndex {
 public:
  explicit QueueIndex(const Inventory& inventory);
  // The queue `id` names: its exact id, else the unique queue whose name is the id's last
  // ARN segment (arn:aws:sqs:region:account:NAME) or the id itself; nullptr when none or several.
  const QueueConfig* Resolve(std::string_view id) const;

 private:
  std::unordered_map<std::string_view, const QueueConfig*> by_id_;
  std::unordered_map<std::string_view, const QueueConfig*> by_name_;  // nullptr: several of that name
};

// The unknowns of `queue` about `field` (Unknown::field; "" matches every field).
std::vector<const Unknown*> UnknownsAbout(const QueueConfig& queue, std::string_view field);

}  // namespace dlq::check
