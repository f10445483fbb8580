// The service-bus mode (core/systems/service_bus.cpp). Azure Service Bus has no local
// server here, so these rules are tested against its documentation, each case naming
// (quoting) the sentence it encodes:
//   [Z1] learn.microsoft.com/azure/service-bus-messaging/service-bus-dead-letter-queues
//   [Z2] learn.microsoft.com/dotnet/api/azure.messaging.servicebus.administration.queueproperties.maxdeliverycount
//   [Z5] learn.microsoft.com/dotnet/api/azure.messaging.servicebus.servicebusreceiver.abandonmessageasync
//   [Z6] learn.microsoft.com/azure/service-bus-messaging/message-transfers-locks-settlement (lock duration)
#include <string>
#include <vector>

#include "modules.h"
#include "queue.h"
#include "registry.h"
#include "schema.h"
#include "test_util.h"

namespace dlq {
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

}  // namespace

TEST_CASE("service-bus: its name, label and link letter come from the system choice list") {
  const SystemRules& sb = SystemOf(System::kServiceBus);
  CHECK(sb.id() == System::kServiceBus);
  CHECK(std::string(sb.name()) == "service-bus");
  CHECK(sb.link_letter() == 'z');
  CHECK(ParseSystem("service-bus").value() == System::kServiceBus);
  CHECK(SystemByLinkLetter('z') == System::kServiceBus);
}

TEST_CASE("service-bus [Z2]: \"A message is automatically deadlettered after this number of deliveries. default "
          "value is 10\"; \"Minimum value is 1\"") {
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

TEST_CASE("service-bus: a backoff is refused by name (the broker has no retry delay; one would be the app's own "
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

TEST_CASE("service-bus [Z2]: \"The delivery count is increased when a message is received in PeekLock mode and "
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

TEST_CASE("service-bus [Z1]: a dead letter carries DeadLetterReason \"MaxDeliveryCountExceeded\" and its description; "
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

TEST_CASE("service-bus [Z1]: \"Applications can define their own codes for the dead-letter reason property\": a "
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

TEST_CASE("service-bus [Z1]: the dead-letter queue \"doesn't need to be explicitly created and can't be deleted\": "
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

}  // namespace dlq
