# Edlib (libedlib-dev), approximate search's peer in tests and benchmarks: found in the system or in
# the device carry (scripts/make_device_carry.sh: .carry/gpu/peers/edlib). strmatch_link_edlib(target
# DEFINE) links it into `target` and defines DEFINE=1 there; returns quietly when Edlib is absent.
find_path(STRMATCH_EDLIB_INCLUDE_DIR edlib.h PATHS ${PROJECT_SOURCE_DIR}/.carry/gpu/peers/edlib/include)
find_library(STRMATCH_EDLIB_LIBRARY edlib PATHS ${PROJECT_SOURCE_DIR}/.carry/gpu/peers/edlib/lib)
function(strmatch_link_edlib target define)
  if(STRMATCH_EDLIB_INCLUDE_DIR AND STRMATCH_EDLIB_LIBRARY)
    target_include_directories(${target} SYSTEM PRIVATE ${STRMATCH_EDLIB_INCLUDE_DIR})
    target_link_libraries(${target} PRIVATE ${STRMATCH_EDLIB_LIBRARY})
    target_compile_definitions(${target} PRIVATE ${define}=1)
  endif()
endfunction()
