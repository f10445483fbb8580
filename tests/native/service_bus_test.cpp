// The service-bus mode (core/systems/service_bus.cpp). Azure Service Bus has no local
// server here, so these rules are tested against its documentation, each case naming
// (quoting) the sentence it encodes:
//   [Z1] learn.microsoft.com/azure/service-bus-messaging/service-bus-dead-letter-queues
//   [Z2] learn.microsoft.com/dotnet/api/azure.messaging.servicebus.administration.queueproperties.maxdeliverycount
//   [Z5] learn.microsoft.com/dotnet/api/azure.messaging.servicebus.servicebusreceiver.abandonmessageasync
//   [Z6] learn.microsoft.com/azure/service-bus-messaging/message-transfers-locks-settlement (lock duration)
//   [Z7] learn.microsoft.com/azure/service-bus-messaging/message-expiration (time to live)
#include <string>
#include <vector>

#include "modules.h"
#include "queue.h"
#include "registry.h"
#include "schema.h"
#include "test_util.h"

namespace dlq::service_bus_test {
namespace {

Policy ServiceBusPolicy(int64_t max_delivery_count) {
  Policy p;
  p.system = System::kServiceBus;
  p.max_attempts = max_delivery_count;
  return p;
}

EntryFacts FactsOf(const QuarantineEntry& e) {
  EntryFacts f;
  f.payload = e.payload;
  f.attempts = e.attempts;
  f.last_error = e.last_error;
  f.arrived_at = e.arrived_at;
  f.reason = e.reason;
  return f;
}

const RecordField* FieldNamed(const DeadLetterRecord& record, const std::string& name) {
  for (const RecordField& f : record) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

// A service-bus policy with a defaultMessageTimeToLive of `ttl_ms` (and dead-lettering on expiry as given).
Policy ExpiringPolicy(int64_t ttl_ms, bool dead_letter_on_expiry) {
  Policy p = ServiceBusPolicy(10);
  p.default_message_ttl_ms = ttl_ms;
  p.dead_letter_on_expiry = dead_letter_on_expiry;
  p.lease_ms = 60'000;
  return p;
}

}  // namespace

TEST_CASE("service-bus: its name, label and link letter come from the system choice list") {
  const SystemRules& sb = SystemOf(System::kServiceBus);
  CHECK(sb.id() == System::kServiceBus);
  CHECK(std::string(sb.name()) == "service-bus");
  CHECK(sb.link_letter() == 'z');
  CHECK(ParseSystem("service-bus").value() == System::kServiceBus);
  CHECK(SystemByLinkLetter('z') == System::kServiceBus);
}

TEST_CASE(
    "service-bus [Z2]: \"A message is automatically deadlettered after this number of deliveries. default "
    "value is 10\", \"Minimum value is 1\"") {
  Policy p = ServiceBusPolicy(10);
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.Budget() == 10);
  Queue q = test::QueueWith(p, {"a"});
  int deliveries = 0;
  for (int i = 0; i < 20; ++i) {
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    if (!a->processed) break;
    ++deliveries;
  }
  CHECK(deliveries == 10);
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].attempts == 10);
  p.max_attempts = 0;
  CHECK_FALSE(Policy::Check(p).ok());
}

TEST_CASE("service-bus [Z5]: abandon \"will make the message available again for immediate processing\": no delay") {
  Policy p = ServiceBusPolicy(4);
  Queue q = test::QueueWith(p, {"a", "b"});
  for (int i = 0; i < 3; ++i) {
    Result<Attempt> a = q.Process("transient");
    REQUIRE(a.ok());
    REQUIRE(a->processed);
    CHECK(a->delay_ms == 0);
    CHECK(a->disposition == Disposition::kRequeued);
  }
  // The default table's precondition delay (fixed 1 s) plays at once too: the module's delay.
  const Backoff one_second{BackoffKind::kFixed, 1000, 1000, Jitter::kNone};
  Prng jitter(1);
  CHECK(SystemOf(p).RetryDelay(p, one_second, 1, 0, jitter) == 0);
  CHECK(SystemOf(p).MaxRetryDelay(p, one_second, 1, 0) == 0);
}

TEST_CASE(
    "service-bus: a backoff is refused by name (the broker has no retry delay, one would be the app's own "
    "scheduling)") {
  Policy p = ServiceBusPolicy(10);
  p.backoff.kind = BackoffKind::kExponential;
  Status s = Policy::Check(p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() ==
        "backoff.kind must be \"none\" with system \"service-bus\" (abandon redelivers at once: Service Bus has no "
        "retry delay), got \"exponential\"");
  p = ServiceBusPolicy(10);
  ClassRule& transient = p.classes[FailureClass::kTransient];
  transient.own_backoff = true;
  transient.backoff = {BackoffKind::kFixed, 2000, 2000, Jitter::kNone};
  s = Policy::Check(p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().rfind("classes.transient.backoff.kind must be \"none\" with system \"service-bus\"", 0) == 0);
  // The default table (precondition's own fixed 1 s) is accepted; changing it is refused.
  p = ServiceBusPolicy(10);
  REQUIRE(Policy::Check(p).ok());
  p.classes[FailureClass::kPrecondition].backoff.base_ms = 500;
  CHECK_FALSE(Policy::Check(p).ok());
  // The same backoff under the lab is fine: the refusal is the mode's.
  p.system = System::kLab;
  CHECK(Policy::Check(p).ok());
}

TEST_CASE("service-bus [Z6]: the lock duration's \"maximum value is 5 minutes\": leaseMs above it is refused") {
  Policy p = ServiceBusPolicy(10);
  p.lease_ms = 300'000;
  CHECK(Policy::Check(p).ok());
  p.lease_ms = 300'001;
  Status s = Policy::Check(p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message() ==
        "leaseMs must be an integer from 1 to 300000 with system \"service-bus\" (its lockDuration lasts at most 5 "
        "minutes), got 300001");
  p.system = System::kLab;
  CHECK(Policy::Check(p).ok());
}

TEST_CASE(
    "service-bus [Z2]: \"The delivery count is increased when a message is received in PeekLock mode and "
    "didn't complete the message before the message lock expired\"") {
  Policy p = ServiceBusPolicy(2);
  p.lease_ms = 1000;
  Queue q = test::QueueWith(p, {"a"});
  for (int i = 0; i < 2; ++i) {
    Result<LeaseGrant> g = q.Lease();
    REQUIRE(g.ok());
    REQUIRE(q.Advance(g->expires_at - q.stats().now).ok());
  }
  REQUIRE(q.view().Quarantined().size() == 1);
  const QuarantineEntry e = q.view().Quarantined()[0];
  CHECK(e.attempts == 2);
  CHECK(std::string(SystemOf(p).ReasonName(e.reason)) == "MaxDeliveryCountExceeded");
}

TEST_CASE(
    "service-bus [Z1]: a dead letter carries DeadLetterReason \"MaxDeliveryCountExceeded\" and its description, "
    "\"Message couldn't be consumed after maximum delivery attempts\"") {
  Policy p = ServiceBusPolicy(3);
  Queue q = test::QueueWith(p, {"a"});
  for (int i = 0; i < 3; ++i) REQUIRE(q.Process("transient", "db timeout").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  const DeadLetterRecord r = SystemOf(p).Record(FactsOf(q.view().Quarantined()[0]));
  CHECK(r == DeadLetterRecord{RecordField::Text("DeadLetterReason", "MaxDeliveryCountExceeded"),
                              RecordField::Text("DeadLetterErrorDescription", kServiceBusMaxDeliveryDescription),
                              RecordField::Number("DeliveryCount", 3),
                              RecordField::Text("path", "orders/$deadletterqueue")});
}

TEST_CASE(
    "service-bus [Z1]: \"Applications can define their own codes for the dead-letter reason property\": a "
    "permanent failure is the app's DeadLetterMessageAsync(message, reason, description)") {
  Policy p = ServiceBusPolicy(10);
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("permanent", "unexpected end of JSON").ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  const DeadLetterRecord r = SystemOf(p).Record(FactsOf(q.view().Quarantined()[0]));
  CHECK(FieldNamed(r, "DeadLetterReason")->text == "permanent");
  CHECK(FieldNamed(r, "DeadLetterErrorDescription")->text == "unexpected end of JSON");
  CHECK(FieldNamed(r, "DeliveryCount")->number == 1);
}

TEST_CASE(
    "service-bus [Z1]: the dead-letter queue \"doesn't need to be explicitly created and can't be deleted\": "
    "nothing is dropped") {
  Policy p = ServiceBusPolicy(1);
  CHECK(p.DeadLetterDrop() == DropCause::kKept);
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("transient").ok());
  CHECK(q.view().Quarantined().size() == 1);
  CHECK(q.stats().discarded == 0);
}

TEST_CASE("service-bus: a snapshot and the journal give the queue back") {
  Policy p = ServiceBusPolicy(3);
  Queue q = test::QueueWith(p, {"a", "b"});
  REQUIRE(q.Process("transient").ok());
  REQUIRE(q.Process("permanent", "bad").ok());
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  Result<Queue> restored = Queue::Restore(text.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->policy().system == System::kServiceBus);
  CHECK(restored->view().SnapshotText().value() == text.value());
  test::CheckJournalRecovers(q);
}

TEST_CASE(
    "service-bus [Z7]: \"The expiration becomes an absolute instant when the message is enqueued into the "
    "entity. At that time, the expires-at-utc property takes on the value enqueued-time-utc + time-to-live\": an "
    "expired lock does not restart it") {
  Policy p = ExpiringPolicy(10'000, true);
  p.lease_ms = 6000;
  REQUIRE(Policy::Check(p).ok());
  CHECK(p.MessageTtlMs() == 10'000);
  CHECK_FALSE(p.RetryRepublishes());  // a redelivery, not an enqueue
  Queue q = test::QueueWith(p, {"a"});
  // Lock 1 ends at 6 s, before the TTL: back in ready, DeliveryCount 1.
  REQUIRE(q.Lease()->leased);
  REQUIRE(q.Advance(int64_t{6000}).ok());
  CHECK(q.view().Quarantined().empty());
  // Lock 2 ends at 12 s: counted from the enqueue (0 + 10 s), not from the return at 6 s
  // (which would give 16 s), the message has expired.
  REQUIRE(q.Lease()->leased);
  REQUIRE(q.Advance(int64_t{6000}).ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  const QuarantineEntry e = q.view().Quarantined()[0];
  CHECK(e.reason == Reason::kExpired);
  CHECK(e.attempts == 2);
  CHECK(e.arrived_at == 12'000);
}

TEST_CASE(
    "service-bus [Z7]: \"The expiration doesn't affect messages that are currently locked for delivery. Those "
    "messages are still handled normally. If the lock expires or the message is abandoned, the expiration takes "
    "immediate effect\"") {
  Policy p = ExpiringPolicy(10'000, true);
  // Locked past its expiry: nothing happens until the lock ends; an abandon then expires it at once.
  Queue q = test::QueueWith(p, {"a", "b"});
  Result<LeaseGrant> a = q.Lease();
  REQUIRE(a->leased);
  REQUIRE(q.Advance(int64_t{15'000}).ok());  // b, ready at the head, expired at 10 s
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].id == "b");
  CHECK(q.view().Quarantined()[0].arrived_at == 10'000);
  CHECK(q.view().Quarantined()[0].attempts == 0);            // never delivered
  REQUIRE(q.Settle(a->token, "transient", "db down").ok());  // abandon at 15 s
  REQUIRE(q.view().Quarantined().size() == 2);
  CHECK(q.view().Quarantined()[1].id == "a");
  CHECK(q.view().Quarantined()[1].reason == Reason::kExpired);
  CHECK(q.view().Quarantined()[1].arrived_at == 15'000);
  CHECK(q.view().Quarantined()[1].attempts == 1);
  CHECK(q.stats().ready == 0);
}

TEST_CASE(
    "service-bus [Z7]: \"it isn't moved if the message is successfully settled, which then assumes that the "
    "application has successfully handled it, in spite of the nominal expiration\"") {
  Policy p = ExpiringPolicy(10'000, true);
  Queue q = test::QueueWith(p, {"a"});
  Result<LeaseGrant> a = q.Lease();
  REQUIRE(q.Advance(int64_t{20'000}).ok());
  Result<Attempt> done = q.Settle(a->token, "success");
  REQUIRE(done.ok());
  CHECK(done->disposition == Disposition::kCompleted);
  CHECK(q.view().Quarantined().empty());
  CHECK(q.stats().discarded == 0);
}

TEST_CASE(
    "service-bus [Z7]: \"Past the expires-at-utc instant, messages become ineligible for retrieval\": a receive "
    "never hands out an expired message, wherever it stands") {
  Policy p = ExpiringPolicy(10'000, true);
  p.ordering = Ordering::kKey;  // sessions: a receive may take a message behind the head
  REQUIRE(Policy::Check(p).ok());
  Result<Queue> made = Queue::Create(p);
  REQUIRE(made.ok());
  Queue q = std::move(made).value();
  REQUIRE(q.Enqueue("a", "pa", "ka").ok());  // enqueued at 0: expires at 10 s
  REQUIRE(q.Advance(int64_t{5000}).ok());
  REQUIRE(q.Enqueue("h", "ph", "kb").ok());  // enqueued at 5 s: expire at 15 s
  REQUIRE(q.Enqueue("b", "pb", "kb").ok());
  REQUIRE(q.Process("transient").ok());    // a abandoned at 5 s: to the tail, behind h and b
  REQUIRE(q.Lease()->leased);              // h locked: its session holds b
  REQUIRE(q.Advance(int64_t{6000}).ok());  // 11 s: a has expired, behind b (not yet)
  CHECK(q.view().Quarantined().empty());   // not the head: not yet moved
  Result<Attempt> next = q.Process("success");
  REQUIRE(next.ok());
  CHECK_FALSE(next->processed);  // b waits for its session; a is not handed out
  REQUIRE(q.view().Quarantined().size() == 1);
  CHECK(q.view().Quarantined()[0].id == "a");
  CHECK(q.view().Quarantined()[0].reason == Reason::kExpired);
  CHECK(q.view().Quarantined()[0].arrived_at == 11'000);
  CHECK(q.view().Quarantined()[0].attempts == 1);
}

TEST_CASE(
    "service-bus [Z1]: \"When you enable dead-lettering on queues or subscriptions, all expiring messages are "
    "moved to the DLQ. The dead-letter reason code is set to: TTLExpiredException\"") {
  Policy p = ExpiringPolicy(1000, true);
  CHECK(p.ExpiryDrop() == DropCause::kKept);
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Process("transient", "db down").ok());
  REQUIRE(q.Advance(int64_t{1000}).ok());
  REQUIRE(q.view().Quarantined().size() == 1);
  const QuarantineEntry e = q.view().Quarantined()[0];
  CHECK(std::string(SystemOf(p).ReasonName(e.reason)) == "TTLExpiredException");
  const DeadLetterRecord r = SystemOf(p).Record(FactsOf(e));
  CHECK(r == DeadLetterRecord{RecordField::Text("DeadLetterReason", "TTLExpiredException"),
                              RecordField::Text("DeadLetterErrorDescription", kServiceBusExpiredDescription),
                              RecordField::Number("DeliveryCount", 1),
                              RecordField::Text("path", "orders/$deadletterqueue")});
  CHECK(std::string(kServiceBusExpiredDescription) == "The message expired and was dead lettered.");
  // Delivered once and failed: the event says so (not "undelivered", which is only true of attempts 0).
  const std::vector<Event> events = q.view().Timeline();
  REQUIRE(events.back().kind == EventKind::kQuarantined);
  CHECK(ExplainEvent(events.back()) ==
        "\"a\" was dead-lettered (expired) after 1 attempt: its time to live ran out before it completed; only an "
        "operator's replay brings it back");
}

TEST_CASE("service-bus [Z7]: \"If the option is left disabled, expired messages are dropped\"") {
  Policy p = ExpiringPolicy(1000, false);
  CHECK(p.ExpiryDrop() == DropCause::kNoDeadLetteringOnExpiration);
  CHECK(p.DeadLetterDrop() == DropCause::kKept);  // MaxDeliveryCountExceeded still goes to the DLQ
  Queue q = test::QueueWith(p, {"a"});
  REQUIRE(q.Advance(int64_t{1500}).ok());
  CHECK(q.view().Quarantined().empty());
  REQUIRE(q.view().Discarded().size() == 1);
  CHECK(q.view().Discarded()[0].reason == Reason::kExpired);
  CHECK(q.view().Discarded()[0].at == 1000);
  const std::vector<Event> events = q.view().Timeline();
  REQUIRE(events.back().kind == EventKind::kDiscarded);
  CHECK(events.back().drop_cause == DropCause::kNoDeadLetteringOnExpiration);
  CHECK(ExplainEvent(events.back()).find("deadLetteringOnMessageExpiration false") != std::string::npos);
  CHECK(ExplainEvent(events.back()).find("dropped it undelivered") != std::string::npos);  // never delivered
  test::CheckJournalRecovers(q);
  // One delivered and abandoned before its time ran out is not called undelivered.
  Queue tried = test::QueueWith(p, {"a"});
  REQUIRE(tried.Process("transient", "db down").ok());
  REQUIRE(tried.Advance(int64_t{1500}).ok());
  REQUIRE(tried.view().Discarded().size() == 1);
  const std::string why = ExplainEvent(tried.view().Timeline().back());
  CHECK(why.find("expired after 1 delivery") != std::string::npos);
  CHECK(why.find("dropped it before it completed") != std::string::npos);
}

TEST_CASE(
    "service-bus: defaultMessageTtlMs and deadLetterOnExpiry are its own, refused elsewhere by name, no TTL by "
    "default") {
  Policy p = ServiceBusPolicy(10);
  CHECK(p.MessageTtlMs() == 0);  // TimeSpan.MaxValue: none
  CHECK_FALSE(p.dead_letter_on_expiry);
  Policy rabbit;
  rabbit.system = System::kRabbitMqQuorum;
  rabbit.default_message_ttl_ms = 1000;
  Status s = Policy::Check(rabbit);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().rfind("defaultMessageTtlMs applies only with system \"service-bus\"", 0) == 0);
  rabbit.default_message_ttl_ms = 0;
  rabbit.dead_letter_on_expiry = true;
  CHECK_FALSE(Policy::Check(rabbit).ok());
  // RabbitMQ's messageTtlMs is not Service Bus's.
  p.message_ttl_ms = 1000;
  CHECK_FALSE(Policy::Check(p).ok());
  p = ExpiringPolicy(1000, true);
  p.dlq_to_source = true;
  s = Policy::Check(p);
  REQUIRE_FALSE(s.ok());
  CHECK(s.message().rfind("antiPatterns.dlqToSource must be false with a defaultMessageTtlMs", 0) == 0);
}

TEST_CASE("service-bus: with a TTL, a snapshot and the journal give the queue back") {
  Policy p = ExpiringPolicy(10'000, true);
  Queue q = test::QueueWith(p, {"a", "b", "c"});
  REQUIRE(q.Process("transient").ok());
  REQUIRE(q.Advance(int64_t{4000}).ok());
  REQUIRE(q.Enqueue("d", "pd").ok());
  REQUIRE(q.Advance(int64_t{7000}).ok());
  REQUIRE(q.Process("success").ok());
  Result<std::string> text = q.view().SnapshotText();
  REQUIRE(text.ok());
  Result<Queue> restored = Queue::Restore(text.value());
  REQUIRE_MESSAGE(restored.ok(), restored.status().ToString());
  CHECK(restored->policy() == p);
  CHECK(restored->view().SnapshotText().value() == text.value());
  test::CheckJournalRecovers(q);
}

}  // namespace dlq::service_bus_test
