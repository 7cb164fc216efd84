# The data plane of sandbox-desk-local: sandbox filesystems, the process runner
# (bubblewrap jails) and the envd service.
target_sources(sdlocal PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/sandboxfs.cpp ${CMAKE_CURRENT_LIST_DIR}/sandboxfs.h
    ${CMAKE_CURRENT_LIST_DIR}/sandboxfiles.cpp ${CMAKE_CURRENT_LIST_DIR}/sandboxfiles.h
    ${CMAKE_CURRENT_LIST_DIR}/processrunner.cpp ${CMAKE_CURRENT_LIST_DIR}/processrunner.h
)
target_sources(sdlocal PRIVATE
    ${CMAKE_CURRENT_LIST_DIR}/envdservice.cpp ${CMAKE_CURRENT_LIST_DIR}/envdservice.h
)
