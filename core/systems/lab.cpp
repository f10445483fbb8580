// The lab's own rules: the lesson's. Every hook keeps SystemRules' default, so
// this file is the shape of a system that changes nothing.
#include "modules.h"

namespace dlq::systems {
namespace {

class LabSystem final : public SystemRules {
 public:
  System id() const override { return System::kLab; }
  // A lab queue's entries are as they always were: no system reason, no record.
  bool DescribesEntries() const override { return false; }
};

}  // namespace

const SystemRules& Lab() {
  static const LabSystem system;
  return system;
}

}  // namespace dlq::systems
