// The policy's fields, described once (field.h): the choices of its enums, and
// one table per object the JS API takes: the policy itself, a backoff (the
// policy's and a class's own), and a class rule. The bindings read and write
// these objects with the tables, index.mjs validates and copies with them
// (lab.schema), the Advanced set-up form is built from them, and a native test
// checks that link v2 and the snapshot text carry every field they mark carried.
// Adding a field: docs/adding-a-field.md.
#pragma once

#include <span>

#include "field.h"
#include "policy.h"

namespace dlq {

// The enums' names, in enum order (policy.h's *Name and Parse* read these).
inline constexpr Choice kBackoffKindItems[] = {
    {"none", "None (requeue at once)", "n"}, {"fixed", "Fixed", "f"}, {"exponential", "Exponential", "x"}};
inline constexpr Choices kBackoffKindChoices{kBackoffKindItems, 3};
inline constexpr Choice kJitterItems[] = {{"none", "None", "n"},
                                          {"full", "Full", "f"},
                                          {"equal", "Equal", "e"},
                                          {"decorrelated", "Decorrelated", "d"},
                                          {"bullmq", "BullMQ: [v(1 - j), v)", "b"}};
inline constexpr Choices kJitterChoices{kJitterItems, 5};
inline constexpr Choice kOrderingItems[] = {
    {"none", "None: skip past", "n"}, {"key", "Hold the key", "k"}, {"stall", "Stall: head only", "s"}};
inline constexpr Choices kOrderingChoices{kOrderingItems, 3};
inline constexpr Choice kSystemItems[] = {{"lab", "The lab's rules", "l"},
                                          {"rabbitmq-quorum", "RabbitMQ quorum queue", "q"},
                                          {"bullmq", "BullMQ", "b"},
                                          {"sidekiq", "Sidekiq", "k"},
                                          {"sqs", "Amazon SQS", "s"},
                                          {"pubsub", "Google Cloud Pub/Sub", "p"},
                                          {"service-bus", "Azure Service Bus", "z"},
                                          {"spring-kafka", "Spring Kafka", "f"},
                                          {"kafka-connect", "Kafka Connect", "c"}};
inline constexpr Choices kSystemChoices{kSystemItems, 9};
inline constexpr Choice kDeliveryLimitItems[] = {{"explicit", "Set: maxAttempts - 1"},
                                                 {"unset-3.x", "Not set, RabbitMQ 3.x: no limit", "3"},
                                                 {"unset-4.x", "Not set, RabbitMQ 4.0+: 20", "4"},
                                                 {"classic-queue", "None: a classic queue keeps no count", "c"}};
inline constexpr Choices kDeliveryLimitChoices{kDeliveryLimitItems, 4};
inline constexpr Choice kDeadLetterExchangeItems[] = {{"set", "Set: dead letters go to the dead-letter queue"},
                                                      {"none", "None: dead letters are dropped", "n"}};
inline constexpr Choices kDeadLetterExchangeChoices{kDeadLetterExchangeItems, 2};
inline constexpr Choice kDelayedRetryTypeItems[] = {{"disabled", "Disabled (before 4.3; 4.3's default)"},
                                                    {"all", "All returns (4.3)", "a"},
                                                    {"failed", "Failed returns: reject, lost connection (4.3)", "f"},
                                                    {"returned", "Uncounted returns: nack, released (4.3)", "r"}};
inline constexpr Choices kDelayedRetryTypeChoices{kDelayedRetryTypeItems, 4};
inline constexpr Choice kDeadLetterTopicItems[] = {{"set", "Set: a dead_letter_policy with its topic"},
                                                   {"none", "None: redelivered until retention expires", "n"}};
inline constexpr Choices kDeadLetterTopicChoices{kDeadLetterTopicItems, 2};
inline constexpr Choice kRequeueWithItems[] = {{"reject", "basic.reject: counted in delivery-count"},
                                               {"nack", "basic.nack on 4.3: not counted", "n"}};
inline constexpr Choices kRequeueWithChoices{kRequeueWithItems, 2};
inline constexpr Choice kDeliveryTimeItems[] = {
    {"broker", "The broker: its linear delayed retry"},
    {"backoff", "The consumer: x-opt-delivery-time from the backoff (4.3)", "b"}};
inline constexpr Choices kDeliveryTimeChoices{kDeliveryTimeItems, 2};
inline constexpr Choice kDelayAtItems[] = {{"broker", "The broker (delayed)"},
                                           {"consumer-sleep", "The consumer sleeps", "c"},
                                           {"retry-queue", "A retry queue and a scheduler", "q"}};
inline constexpr Choices kDelayAtChoices{kDelayAtItems, 3};
// A class rule's `retry` (ClassRule.retry false / true).
inline constexpr Choice kRetryItems[] = {{"never", "never", "n"}, {"bounded", "bounded", "b"}};
inline constexpr Choices kRetryChoices{kRetryItems, 2};

// A class rule's `backoff` when it is the policy's (ClassRule.own_backoff false).
inline constexpr const char* kPolicyBackoffName = "policy";

// The policy's own fields, in the order the bindings read them. Its `backoff`
// object has BackoffFields(); its `classes` object has one ClassRuleFields()
// object per failure class (ClassName), which may also be "policy" for its backoff.
std::span<const Field<Policy>> PolicyFields();
std::span<const Field<Backoff>> BackoffFields();
std::span<const Field<ClassRule>> ClassRuleFields();

// True for the fields a scenario (links v2, snapshots) carries: every policy
// field but `journal`, which only createQueue() takes.
bool IsScenarioField(const FieldSpec& spec);

// The link v2 field that holds a mode's own settings after the system's code,
// and the one that holds the teaching switches: their members are the rows
// with that link_field (and, for the mode's, an only_under).
inline constexpr char kModeLinkField = 'r';
inline constexpr char kSwitchLinkField = 't';
// A mode's own setting (its row names only_under): written after the system,
// each only when not its default, in table order, by link v2 and the snapshot.
inline bool IsModeSetting(const FieldSpec& spec) { return spec.only_under != nullptr; }
// A teaching switch: written in link v2's t field and the snapshot's "switches" group.
inline bool IsTeachingSwitch(const FieldSpec& spec) { return spec.link_field == kSwitchLinkField; }

}  // namespace dlq
