# regrapht_add_test(NAME name SOURCES a.cc b.cc LIBS lib... [LABELS l...])
#
# One GoogleTest executable per call, registered with CTest. Tests that need
# hardware or a model are labelled `gpu` or `model`; their executables exit
# with code 77 when the requirement is missing, which CTest shows as
# "Skipped" (SKIP_RETURN_CODE), so a missing GPU is visible, never a pass.
function(regrapht_add_test)
  cmake_parse_arguments(T "" "NAME" "SOURCES;LIBS;LABELS" ${ARGN})
  if(NOT REGRAPHT_BUILD_TESTS)
    return()
  endif()
  add_executable(${T_NAME} ${T_SOURCES})
  target_link_libraries(${T_NAME} PRIVATE ${T_LIBS} GTest::gtest GTest::gmock Threads::Threads)
  target_include_directories(${T_NAME} PRIVATE ${REGRAPHT_SOURCE_ROOT}/src ${REGRAPHT_SOURCE_ROOT}/include)
  target_compile_options(${T_NAME} PRIVATE ${REGRAPHT_TEST_COMPILE_OPTIONS})
  if(NOT T_LIBS MATCHES "regrapht_test_main")
    target_link_libraries(${T_NAME} PRIVATE GTest::gtest_main)
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_NAME})
  set_tests_properties(${T_NAME} PROPERTIES
    SKIP_RETURN_CODE 77
    ENVIRONMENT "REGRAPHT_SOURCE_DIR=${REGRAPHT_SOURCE_ROOT};REGRAPHT_BINARY_DIR=${CMAKE_BINARY_DIR}")
  if(T_LABELS)
    set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}")
  else()
    set_tests_properties(${T_NAME} PROPERTIES LABELS "cpu")
  endif()
endfunction()

# regrapht_library(name SOURCES ... DEPS ...): one static library per module.
function(regrapht_library)
  cmake_parse_arguments(L "" "NAME" "SOURCES;DEPS" ${ARGN})
  add_library(${L_NAME} STATIC ${L_SOURCES})
  target_include_directories(${L_NAME} PUBLIC ${REGRAPHT_SOURCE_ROOT}/src ${REGRAPHT_SOURCE_ROOT}/include)
  target_link_libraries(${L_NAME} PUBLIC ${L_DEPS})
endfunction()
