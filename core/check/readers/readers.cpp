// The reader table: one row per format, each defined in its own file (readers.h).
#include "readers.h"

#include "broker_readers.h"

namespace dlq::check {

std::span<const Reader> Readers() {
  static const Reader kReaders[] = {
      kRabbitmqDefinitionsReader,
      kRabbitmqTopologyReader,
      kSidekiqYmlReader,
      kSidekiqRubyReader,
      kBullmqReader,
  };
  return kReaders;
}

void JoinInventory(Inventory* inventory) {
  JoinSidekiqSettings(inventory);
}

}  // namespace dlq::check
