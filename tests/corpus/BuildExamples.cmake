# Configures and builds examples/ in BINARY, then checks that the build
# wrote a compilation database naming every example. BINARY starts empty so
# that an earlier configure with another generator cannot get in the way.
file(REMOVE_RECURSE ${BINARY})
foreach(step configure build)
  if(step STREQUAL "configure")
    set(command ${CMAKE_COMMAND} -S ${SOURCE} -B ${BINARY} -G ${GENERATOR}
      -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
  else()
    set(command ${CMAKE_COMMAND} --build ${BINARY} -j 2)
  endif()
  execute_process(COMMAND ${command} RESULT_VARIABLE result)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "examples: ${step} failed (${result})")
  endif()
endforeach()
file(READ ${BINARY}/compile_commands.json database)
foreach(example histogram box_blur stream_compaction transpose)
  if(NOT database MATCHES "${example}\\.cu")
    message(FATAL_ERROR "compile_commands.json does not list ${example}.cu")
  endif()
endforeach()
message(STATUS "examples built; compile_commands.json lists all four")
