# `make package` (the CPack `package` target): a .deb of the installed tree.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME sandbox-desk)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_VENDOR "Sandbox Desk")
set(CPACK_PACKAGE_CONTACT "Sandbox Desk maintainers <maintainers@sandbox-desk.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Desktop manager for E2B sandboxes and their MCP gateways")
string(CONCAT CPACK_PACKAGE_DESCRIPTION
    "List, create, pause and kill E2B sandboxes, start MCP gateways inside them, and "
    "find and clear the orphans failed creations leave running. Every creation is "
    "journaled before each step and rolled back when it fails. Includes "
    "sandbox-desk-local, an E2B-compatible backend for this computer that runs "
    "sandboxes in bubblewrap jails.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
# Stripped: smaller, and the debug information would carry the build tree's paths.
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Shared libraries from dpkg-shlibdeps; what it cannot see is named here:
# the jail (bwrap), the session bus and a Secret Service for the keychain, and the
# Qt platform plugins the window needs.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "bubblewrap, default-dbus-session-bus | dbus-session-bus, gnome-keyring | keepassxc, qt6-qpa-plugins")
# Qt's own words (standard buttons, the --help frame) in the user's language; without
# it they stay English and everything else is still translated (compiled in).
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "qt6-translations-l10n")
include(CPack)
