// The reader table (readers.h): the one list of formats. Each reader helper appends its
// row here (one line each, with its file readers/<format>.cpp); the order is the order
// DetectFormat tries them, so a more specific format comes before a more general one.
#include "readers/readers.h"

#include <initializer_list>

namespace dlq::check {

namespace {

constexpr std::initializer_list<Reader> kReaders = {
    // {"terraform-plan", "Terraform plan JSON (terraform show -json)", Syntax::kJson, DetectsX, ReadX},
};

}  // namespace

std::span<const Reader> Readers() { return std::span<const Reader>(kReaders.begin(), kReaders.size()); }

}  // namespace dlq::check
