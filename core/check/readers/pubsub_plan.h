// Google Cloud Pub/Sub in a Terraform plan (pubsub_plan.cpp), read by the plan reader
// (terraform_plan.cpp) over the same index.
#pragma once

#include "document.h"
#include "model.h"
#include "plan_index.h"
#include "readers.h"

namespace dlq::check {

// Every google_pubsub_subscription of `plan` as a pubsub queue: its settings through the
// core's gcloud reader (core/config/pubsub_config.cpp), its dead-letter topic joined to the
// subscription on that topic, and the IAM grants of the plan that dead-lettering needs.
Status ReadPubSubSubscriptions(const SourceFile& file, const PlanIndex& plan, Inventory* out);

}  // namespace dlq::check
