#include "field.h"

#include <cmath>

#include "text.h"

namespace dlq {

std::string IntegerField::Message(std::string_view given) const {
  std::string message(name);
  message.append(" must be an integer from ").append(std::to_string(min)).append(" to ").append(std::to_string(max));
  message.append(", got ").append(given);
  return message;
}

Status IntegerField::Check(int64_t value) const {
  if (value < min || value > max) return Status::OutOfRange(Message(std::to_string(value)));
  return Status::Ok();
}

Status IntegerField::Check(double value) const {
  if (!(value >= static_cast<double>(min) && value <= static_cast<double>(max)) || value != std::trunc(value)) {
    return Status::OutOfRange(Message(DescribeNumber(value)));
  }
  return Status::Ok();
}

const char* FieldKindName(FieldKind kind) {
  switch (kind) {
    case FieldKind::kInteger: return "integer";
    case FieldKind::kBoolean: return "boolean";
    case FieldKind::kChoice: return "choice";
  }
  return "?";
}

Result<int> Choices::Parse(std::string_view text, std::string_view name) const {
  for (int i = 0; i < count; ++i) {
    if (text == items[i].name) return i;
  }
  std::string message(name);
  message.append(" must be one of ");
  for (int i = 0; i < count; ++i) message.append(i ? ", \"" : "\"").append(items[i].name).append("\"");
  message.append(", got ").append(QuoteShort(text));
  return Status::InvalidArgument(message);
}

}  // namespace dlq
