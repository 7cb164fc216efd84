// An object library needs at least one source; icons are added with
// qt_add_resources(sdresources ...) next to this file.
