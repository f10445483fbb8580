#include "system.h"

#include <utility>

#include "backoff.h"
#include "schema.h"

namespace dlq {

std::string MessageIdOf(std::string_view id, uint32_t moves) {
  return std::string(id) + "/moved-" + std::to_string(moves);
}

char SystemRules::link_letter() const { return kSystemChoices.items[static_cast<int>(id())].link[0]; }

RecordField RecordField::Number(std::string name, double value) {
  RecordField field;
  field.name = std::move(name);
  field.kind = Kind::kNumber;
  field.number = value;
  return field;
}

RecordField RecordField::Time(std::string name, int64_t at) {
  RecordField field = Number(std::move(name), static_cast<double>(at));
  field.kind = Kind::kTime;
  return field;
}

RecordField RecordField::Text(std::string name, std::string value) {
  RecordField field;
  field.name = std::move(name);
  field.kind = Kind::kText;
  field.text = std::move(value);
  return field;
}

RecordField RecordField::List(std::string name, std::vector<std::vector<RecordField>> items) {
  RecordField field;
  field.name = std::move(name);
  field.kind = Kind::kList;
  field.list = std::move(items);
  return field;
}

int64_t SystemRules::RetryDelay(const Policy& p, const Backoff& backoff, uint32_t attempt, int64_t previous,
                                Prng& jitter) const {
  (void)p;
  return NextDelay(backoff, attempt, previous, jitter);
}

int64_t SystemRules::MaxRetryDelay(const Policy& p, const Backoff& backoff, uint32_t attempt,
                                   int64_t previous_max) const {
  (void)p;
  return MaxDelay(backoff, attempt, previous_max);
}

uint32_t SystemRules::MaxRetryDelaySettlesAt(const Policy& p, const Backoff& backoff) const {
  (void)p;
  return MaxDelaySettlesAt(backoff);
}

}  // namespace dlq
