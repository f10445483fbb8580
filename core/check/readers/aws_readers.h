// The AWS readers' rows for the reader table (readers.cpp), each defined in its own file:
// terraform_plan.cpp and cloudformation.cpp (readers.h: the contract of `detects` and `read`).
#pragma once

#include <string_view>

#include "readers.h"

namespace dlq::check {

bool DetectsTerraformPlan(std::string_view path, std::string_view text, const Node* root);
Status ReadTerraformPlan(const SourceFile& file, const Document* doc, Inventory* out);

bool DetectsCloudFormation(std::string_view path, std::string_view text, const Node* root);
Status ReadCloudFormation(const SourceFile& file, const Document* doc, Inventory* out);

}  // namespace dlq::check
