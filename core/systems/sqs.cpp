// sqs: Amazon SQS with a redrive policy (docs/real-systems.md).
//   * With backoff kind none a failed message comes back when its visibility
//     timeout (leaseMs) ends.
//   * A DLQ message carries no reason; its record is the body, its attributes
//     (ApproximateReceiveCount, SentTimestamp) and the source.
//   * An entry's retention counts from the job's first enqueue (SentTimestamp),
//     which the queue keeps per job.
//   * With moveTaskRate r > 0 a redrive is StartMessageMoveTask (the SQS API reference):
//     "If this field is left blank, the messages will be redriven back to their respective
//     original source queues" (the lab's one source queue), at most r messages a second
//     ("The maximum value for messages per second is 500"), and the redrive "resets the
//     retention period" with a "new messageID and enqueueTime" (the SQS developer guide):
//     a new SentTimestamp, a new MessageId (the lab's MessageIdOf) and a receive count
//     from 0. With 0 (every released link) a replay is the lab's.
#include "modules.h"

#include "backoff.h"

namespace dlq::systems {
namespace {

class SqsSystem final : public SystemRules {
 public:
  System id() const override { return System::kSqs; }

  int64_t RetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous,
                     Prng& jitter) const override {
    if (b.kind == BackoffKind::kNone) return p.lease_ms;
    return NextDelay(b, attempt, previous, jitter);
  }
  int64_t MaxRetryDelay(const Policy& p, const Backoff& b, uint32_t attempt, int64_t previous_max) const override {
    if (b.kind == BackoffKind::kNone) return p.lease_ms;
    return MaxDelay(b, attempt, previous_max);
  }
  uint32_t MaxRetryDelaySettlesAt(const Policy& p, const Backoff& b) const override {
    (void)p;
    return b.kind == BackoffKind::kNone ? 1 : MaxDelaySettlesAt(b);
  }

  const char* ReasonName(Reason reason) const override { return (void)reason, ""; }
  // No reason and no error: the body, its attributes and the receive count, and the source.
  const char* RecordTitle() const override { return "SQS DLQ message attributes"; }
  DeadLetterRecord Record(const EntryFacts& entry) const override {
    if (entry.moves > 0) {  // a message a move task made: its own MessageId (the record gains it only then)
      return {RecordField::Text("MessageId", MessageIdOf(entry.id, entry.moves)),
              RecordField::Text("body", std::string(entry.payload)),
              RecordField::Number("ApproximateReceiveCount", entry.attempts),
              RecordField::Number("SentTimestamp", static_cast<double>(entry.enqueued_at)),
              RecordField::Text("sourceQueue", kSourceQueueName)};
    }
    return {RecordField::Text("body", std::string(entry.payload)),
            RecordField::Number("ApproximateReceiveCount", entry.attempts),
            RecordField::Time("SentTimestamp", entry.enqueued_at), RecordField::Text("sourceQueue", kSourceQueueName)};
  }

  int64_t RetentionFrom(int64_t arrived_at, int64_t first_enqueue) const override {
    return (void)arrived_at, first_enqueue;
  }
  bool Keeps(JobRecord record) const override { return record == JobRecord::kFirstEnqueue; }

  int64_t MoveRatePerSecond(const Policy& p) const override { return p.move_task_rate; }
};

}  // namespace

const SystemRules& Sqs() {
  static const SqsSystem system;
  return system;
}

}  // namespace dlq::systems
