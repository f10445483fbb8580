// dlq-lab core: the one header a user of the C++ API includes.
//
//   #include "dlq.h"
//   auto queue = dlq::Queue::Create({.max_attempts = 3});
//   queue->Enqueue("a", "payload");
//   auto attempt = queue->Process("transient", "db timeout");  // a -> ready tail
//
// status.h  Status / Result<T>: the error channel (no exceptions)
// policy.h  Outcome, Disposition, Reason, Policy
// field.h, schema.h  every configurable field, described once (name, kind, range, default)
// action_schema.h    every scripted action type and its fields, described once
// queue.h   Queue: the lesson's retry/quarantine policy
// event.h   timeline events, their stable text lines and explanations
// scenario.h  policy + jobs + script: deterministic replay and the link format
// prng.h    the deterministic PRNG
// size_limits.h  the size limit of every string and batch a caller hands in
// heap_budget.h  the process-wide cap on what queues keep in memory
// world.h, player.h  the simulated world and the player that plays a queue by it
// goal.h    declarative goals, checked against a queue (lesson exercises)
// par.h     an exercise's par: how few actions its solution needs to meet the goal
// storm.h   a million jobs through an outage: counters and time-bucketed series
// contention.h  the classic optimistic-concurrency backoff experiment
// schedule.h  a policy's retry schedule: delays and start times under jitter, an outage outlasted
#pragma once

#include "action_schema.h"
#include "contention.h"
#include "event.h"
#include "goal.h"
#include "heap_budget.h"
#include "leases.h"
#include "par.h"
#include "ledger.h"
#include "player.h"
#include "policy.h"
#include "prng.h"
#include "schedule.h"
#include "schema.h"
#include "queue.h"
#include "retry_budget.h"
#include "scenario.h"
#include "session.h"
#include "size_limits.h"
#include "status.h"
#include "storm.h"
#include "world.h"
