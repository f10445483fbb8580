// The reader one check_<format>_fuzz harness drives: its format and the file name its input is
// checked as, from the target's DLQ_FUZZ_READER and DLQ_FUZZ_PATH (tests/fuzz/CMakeLists.txt).
// Compiled once per harness and cheap (no header), so that check_reader_fuzz.cpp, which parses
// the checker's headers, is compiled once for all of them.
#if !defined(DLQ_FUZZ_READER) || !defined(DLQ_FUZZ_PATH)
#error "compile with -DDLQ_FUZZ_READER=\"<format>\" -DDLQ_FUZZ_PATH=\"<file name>\""
#endif

namespace dlq::fuzz {
extern const char kReaderFormat[] = DLQ_FUZZ_READER;
extern const char kReaderPath[] = DLQ_FUZZ_PATH;
}  // namespace dlq::fuzz
