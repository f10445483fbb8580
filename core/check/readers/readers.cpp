// The reader table (readers.h): the one list of formats. Each reader helper appends its
// row here (and its file, readers/<format>.cpp); the order is the order DetectFormat tries.
#include "readers/readers.h"

#include <vector>

#include "readers/aws_readers.h"

namespace dlq::check {

namespace {

constexpr const Reader* kReaders[] = {
    &kTerraformPlanReader,
    &kCloudFormationReader,
};

}  // namespace

std::span<const Reader> Readers() {
  static const std::vector<Reader> rows = [] {
    std::vector<Reader> out;
    for (const Reader* r : kReaders) out.push_back(*r);
    return out;
  }();
  return rows;
}

}  // namespace dlq::check
