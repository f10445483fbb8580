# RapidJSON (https://rapidjson.org), the JSON parser the checker reads JSON with
# (core/check/internal/json_parser.cpp): header-only, from Debian's rapidjson-dev. Its headers
# are copied into the build directory so that the WebAssembly build, whose compiler must not
# see /usr/include (the host's C library), finds them too.
find_path(DLQ_RAPIDJSON_INCLUDE rapidjson/reader.h PATHS /usr/include NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT DLQ_RAPIDJSON_INCLUDE)
  message(FATAL_ERROR "RapidJSON is missing (/usr/include/rapidjson): run `npm run setup`, "
                      "which installs Debian's rapidjson-dev")
endif()
file(COPY ${DLQ_RAPIDJSON_INCLUDE}/rapidjson DESTINATION ${CMAKE_CURRENT_BINARY_DIR}/rapidjson-include)
add_library(dlq_rapidjson INTERFACE)
target_include_directories(dlq_rapidjson SYSTEM INTERFACE ${CMAKE_CURRENT_BINARY_DIR}/rapidjson-include)
