# sandbox_desk_man_page(TARGET NAME "one-line description"): section 1 manual page
# generated from the program's --help and --version by help2man, compressed as
# Debian wants it (gzip -n: no time stamp), installed with the program.
find_program(HELP2MAN help2man REQUIRED)

function(sandbox_desk_man_page target description)
    set(page ${CMAKE_BINARY_DIR}/man/${target}.1)
    set(compressed ${page}.gz)
    # A sanitizer build's leak check would turn the help's exit code into a failure.
    # The page is English whatever the language of the machine that builds it.
    add_custom_command(OUTPUT ${compressed}
        COMMAND ${CMAKE_COMMAND} -E make_directory ${CMAKE_BINARY_DIR}/man
        COMMAND ${CMAKE_COMMAND} -E env ASAN_OPTIONS=detect_leaks=0 QT_QPA_PLATFORM=offscreen
                LC_ALL=C.UTF-8 LANGUAGE=
                ${HELP2MAN} --no-info --no-discard-stderr --section=1
                --name=${description} --output=${page} $<TARGET_FILE:${target}>
        COMMAND gzip -9 -n -f ${page}
        DEPENDS ${target}
        COMMENT "Generating the manual page of ${target}"
        VERBATIM)
    add_custom_target(${target}-man ALL DEPENDS ${compressed})
    install(FILES ${compressed} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endfunction()
