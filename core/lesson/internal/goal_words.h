// Internal to the core (lesson/ only): what the goal language's parser (goal_parse.cpp), its
// formatter (goal.cpp) and its checker (goal_check.cpp) share: a predicate's
// keyword and the bytes and ids a bare word may hold.
#pragma once

#include <string>
#include <string_view>

#include "goal.h"

namespace dlq::goal_words {

// The keyword of a predicate; kCounter has none of its own (its counter's name).
const char* PredicateName(GoalPredicate p);

bool IsSpace(unsigned char c);
bool IsSign(unsigned char c);
// Bytes that end a bare word (and so cannot be in a bare id).
bool EndsWord(unsigned char c);

// The grammar's ID in bare form: what FormatId() may write unquoted. Stricter
// than what the lexer reads as a word (no control bytes, valid UTF-8) so the
// canonical text is always printable UTF-8.
bool CanBeBare(std::string_view id);

// An id as the canonical text writes it: bare when it can be, else quoted.
std::string FormatId(std::string_view id);

}  // namespace dlq::goal_words
