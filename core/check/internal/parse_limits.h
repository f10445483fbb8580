// The bounds of the checker's parsers (json_parser.cpp, yaml_parser.cpp): what a file may
// hold before it is refused as a parse error (exit 2) naming the file and line. They keep a
// hostile file (an alias bomb, a 10,000-deep nesting, a 100 MB file) from crashing the
// checker, exhausting the WebAssembly module's 2 GB or running for minutes; each is far
// above what a real configuration needs. docs/check.md ("Formats") lists them.
//
// (Named parse_limits.h, not limits.h: core/*/internal/ is on the tests' include path, where
// a limits.h would shadow the C library's.)
#pragma once

#include <cstddef>

namespace dlq::check {

// A file is refused by its size before it is parsed. A Terraform plan of 10,000 SQS queues
// with their redrive policies and alarms (`terraform show -json`, the benchmark) is
// about 30 MB; 64 MiB is twice that, and a tree built from a file at the limit still fits
// the WebAssembly module's memory (2 GB) beside the text.
constexpr size_t kMaxFileBytes = size_t{64} << 20;

// Nesting of maps and lists. The deepest real formats go about 12 levels (a Terraform plan's
// nested modules' configuration); the tree's walkers and its destructor recurse, so a bound
// far below what a thread's stack allows (WebAssembly's is 5 MB by default) keeps them safe.
constexpr int kMaxDepth = 256;

// Values (maps, lists, scalars, map keys not counted) in one file, aliases expanded. A 10,000
// queue Terraform plan is about 1.5 million; a tree at the limit takes about 700 MB.
constexpr size_t kMaxNodes = size_t{4} << 20;  // 4,194,304

// YAML aliases (*name) copy the value their anchor names: a "billion laughs" file makes a few
// hundred bytes expand to 10^9 values. The values all aliases of a file copy together, at most:
// real files alias small blocks of defaults (a few dozen values each, a few dozen times).
constexpr size_t kMaxAliasNodes = 100'000;

// One scalar (a key or a value). Real values are names, ARNs, numbers and small embedded
// JSON documents (a Terraform redrive_policy); 1 MiB is far above them all.
constexpr size_t kMaxScalarBytes = size_t{1} << 20;

}  // namespace dlq::check
