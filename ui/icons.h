#pragma once

#include <QIcon>
#include <QPalette>

namespace sd {

/// An icon from resources/icons/<name>.svg, drawn at whatever size is asked (sharp at
/// any scale). `currentColor` in the SVG becomes the palette's text colour, so the
/// icons follow a light or dark palette; the caller re-creates them on PaletteChange.
QIcon themedIcon(const QString &name, const QPalette &palette);

} // namespace sd
