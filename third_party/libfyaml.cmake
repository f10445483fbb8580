# libfyaml (https://github.com/pantoniou/libfyaml), the YAML 1.2 parser the checker reads YAML
# with (core/check/internal/yaml_parser.cpp), built from Debian's source package as one static
# library for every preset (native, native-sanitize, fuzz, wasm). It is C and reports errors
# as return values, so it runs in the WebAssembly build, which has no exception catching.
# `npm run setup` (scripts/dlq.mjs, DEBIAN_SOURCES) unpacks the source into build/third_party/
# and applies the upstream fixes carried in third_party/patches/libfyaml/ (a scalar's iterator
# leaked when fy_atom_format_text gave up, found by the check-yaml fuzz harness: upstream 0af6061;
# '''''' read as three quotes, not two: upstream c0a716e), each once (.dlq-patches records them).
set(DLQ_LIBFYAML_DIR "${PROJECT_SOURCE_DIR}/build/third_party/libfyaml-0.7.12" CACHE PATH
    "libfyaml 0.7.12's source, as `apt-get source libfyaml=0.7.12-2` unpacks it")
if(NOT EXISTS "${DLQ_LIBFYAML_DIR}/include/libfyaml.h")
  message(FATAL_ERROR "libfyaml's source is not in ${DLQ_LIBFYAML_DIR}: run `node scripts/dlq.mjs setup` "
                      "(or only `node scripts/dlq.mjs third-party`), which unpacks Debian's source package there")
endif()

enable_language(C)
# Only what the event parser needs: no emitter, document builder, path or walk modules (the
# checker builds its own tree from the events, with its own bounds: core/check/internal/limits.h).
set(fy ${DLQ_LIBFYAML_DIR}/src)
add_library(dlq_libfyaml STATIC
  ${fy}/lib/fy-parse.c ${fy}/lib/fy-utf8.c ${fy}/lib/fy-types.c ${fy}/lib/fy-diag.c ${fy}/lib/fy-dump.c
  ${fy}/lib/fy-atom.c ${fy}/lib/fy-ctype.c ${fy}/lib/fy-token.c ${fy}/lib/fy-input.c ${fy}/lib/fy-docstate.c
  ${fy}/lib/fy-doc.c ${fy}/lib/fy-docbuilder.c ${fy}/lib/fy-emit.c ${fy}/lib/fy-utils.c ${fy}/lib/fy-event.c
  ${fy}/xxhash/xxhash.c ${fy}/lib/fy-accel.c ${fy}/lib/fy-walk.c ${fy}/lib/fy-path.c ${fy}/lib/fy-composer.c)
# configure's config.h, reduced to what the sources read. file(CONFIGURE) writes it only when its
# text changes, so a re-configure (every `npm run build`) does not recompile the library.
file(CONFIGURE OUTPUT ${CMAKE_CURRENT_BINARY_DIR}/libfyaml/config.h
     CONTENT "#define VERSION \"0.7.12\"\n#define HAVE_QSORT_R 0\n#define HAVE_DEVMODE 0\n")
target_include_directories(dlq_libfyaml PRIVATE ${CMAKE_CURRENT_BINARY_DIR}/libfyaml ${fy}/lib ${fy}/xxhash)
# The public header only, as a system header: its own warnings are not ours.
target_include_directories(dlq_libfyaml SYSTEM PUBLIC ${DLQ_LIBFYAML_DIR}/include)
target_compile_definitions(dlq_libfyaml PRIVATE _GNU_SOURCE HAVE_CONFIG_H NDEBUG)
set_target_properties(dlq_libfyaml PROPERTIES C_STANDARD 11 C_EXTENSIONS ON POSITION_INDEPENDENT_CODE OFF)
target_compile_options(dlq_libfyaml PRIVATE -w)
if(EMSCRIPTEN)
  target_compile_options(dlq_libfyaml PRIVATE -Os)
endif()
