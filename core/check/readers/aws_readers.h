// The AWS readers' rows for the reader table (readers.cpp): one per format, each defined
// in its own file (terraform_plan.cpp, cloudformation.cpp).
#pragma once

#include "readers.h"

namespace dlq::check {

extern const Reader kTerraformPlanReader;
extern const Reader kCloudFormationReader;

}  // namespace dlq::check
