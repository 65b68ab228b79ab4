"""Laying out one part of a screen: the widgets under a container whose own place and size cannot change.

Textual lays out a whole screen whenever any widget asks for a layout: `Compositor.reflow` places every widget of the
screen again (`_arrange_root`) and compares the new map with the old one. At a table, the pane shown changes twice
per turn (the hand, the board) and the clue line above it grows or shrinks a row with it: only the main column moves,
and every widget of the screen was placed again for it, at every screen of the table. `arrange_subtree` places the
widgets under one container exactly as `_arrange_root` places them within a whole screen, given where the screen's
last layout put that container (its region, clip, paint order); `RowCompositor.reflow` puts the result in place of
the container's part of the map (see there for when it may).

`add_widget` below is Textual's (textual/_compositor.py, `Compositor._arrange_root`, 8.2.8: listed in
dixit_tui/textual_host/internals.py), copied unchanged but for its indentation: the same code, started at the container
instead of at the screen. Keep it the same as Textual's when Textual is upgraded.
"""

# ruff: noqa
# mypy: ignore-errors
# (Textual's code as it is, formatted as Textual formats it: see `fmt: off`)

from __future__ import annotations

from textual.geometry import Region, Size, Spacing
from textual.map_geometry import MapGeometry
from textual.widget import Widget

CompositorMap = dict[Widget, MapGeometry]


# fmt: off
def arrange_subtree(root: Widget, size: Size, geometry: MapGeometry) -> tuple[CompositorMap, set[Widget]]:
    """The map entries and the widgets that `Compositor._arrange_root(screen, size, visible_only=False)` would make for
    `root` and the widgets under it, `root` being placed at `geometry` (its entry in the screen's map: region, paint
    order, clip, virtual region, dock gutter) and shown (not hidden by `visibility`)."""
    visible_only = False
    map: CompositorMap = {}
    widgets: set[Widget] = set()
    add_new_widget = widgets.add
    invisible_widgets: set[Widget] = set()
    add_new_invisible_widget = invisible_widgets.add

    no_clip = size.region

    def add_widget(
        widget: Widget,
        virtual_region: Region,
        region: Region,
        order: tuple[tuple[int, int, int], ...],
        layer_order: int,
        clip: Region,
        visible: bool,
        dock_gutter: Spacing,
        _MapGeometry: type[MapGeometry] = MapGeometry,
    ) -> None:
        """Called recursively to place a widget and its children in the map.

        Args:
            widget: The widget to add.
            virtual_region: The Widget region relative to its container.
            region: The region the widget will occupy.
            order: Painting order information.
            layer_order: The order of the widget in its layer.
            clip: The clipping region (i.e. the viewport which contains it).
            visible: Whether the widget should be visible by default.
                This may be overridden by the CSS rule `visibility`.
        """
        if not widget._is_mounted:
            return
        styles = widget.styles

        if (visibility := styles.get_rule("visibility")) is not None:
            visible = visibility == "visible"

        if visible:
            add_new_widget(widget)
        else:
            add_new_invisible_widget(widget)

        # Container region is minus border
        container_region = region.shrink(styles.gutter)
        container_size = container_region.size

        # Widgets with scrollbars (containers or scroll view) require additional processing
        if widget.is_scrollable:
            # The region that contains the content (container region minus scrollbars)
            child_region = (
                container_region
                if widget.loading
                else widget._get_scrollable_region(container_region)
            )

            # The region covered by children relative to parent widget
            total_region = child_region.reset_offset

            if widget.is_container:
                # Arrange the layout
                arrange_result = widget.arrange(child_region.size)

                arranged_widgets = arrange_result.widgets
                widgets.update(arranged_widgets)

                # Get the region that will be updated
                sub_clip = clip.intersection(child_region)

                if widget._anchored and not widget._anchor_released:
                    new_scroll_y = (
                        arrange_result.spatial_map.total_region.bottom
                        - (
                            widget.container_size.height
                            - widget.scrollbar_size_horizontal
                        )
                    )
                    widget.set_reactive(Widget.scroll_y, new_scroll_y)
                    widget.set_reactive(Widget.scroll_target_y, new_scroll_y)
                    widget.vertical_scrollbar._reactive_position = new_scroll_y

                if visible_only:
                    placements = arrange_result.get_visible_placements(
                        sub_clip - child_region.offset + widget.scroll_offset
                    )
                else:
                    placements = arrange_result.placements
                total_region = total_region.union(arrange_result.total_region)

                # An offset added to all placements
                placement_offset = container_region.offset
                placement_scroll_offset = placement_offset - widget.scroll_offset

                placements = [
                    placement.process_offset(size.region, placement_scroll_offset)
                    for placement in placements
                ]

                layers_to_index = {
                    layer_name: index
                    for index, layer_name in enumerate(widget.layers)
                }

                get_layer_index = layers_to_index.get

                if widget._cover_widget is not None:
                    map[widget._cover_widget] = _MapGeometry(
                        region.shrink(widget.styles.gutter),
                        order,
                        clip,
                        region.size,
                        container_size,
                        virtual_region,
                        dock_gutter,
                    )

                # Add all the widgets
                for (
                    sub_region,
                    sub_region_offset,
                    _,
                    sub_widget,
                    z,
                    fixed,
                    overlay,
                    absolute,
                ) in reversed(placements):
                    layer_index = get_layer_index(sub_widget.layer, 0)
                    # Combine regions with children to calculate the "virtual size"
                    if fixed:
                        widget_region = (
                            sub_region + sub_region_offset + placement_offset
                        )
                    else:
                        widget_region = (
                            sub_region + sub_region_offset + placement_scroll_offset
                        )

                    widget_order = order + ((layer_index, z, layer_order),)

                    if widget._cover_widget is None:
                        add_widget(
                            sub_widget,
                            sub_region,
                            widget_region,
                            ((1, 0, 0),) if overlay else widget_order,
                            layer_order,
                            no_clip if overlay else sub_clip,
                            visible,
                            arrange_result.scroll_spacing,
                        )
                    layer_order -= 1
            else:
                if widget._anchored and not widget._anchor_released:
                    new_scroll_y = widget.virtual_size.height - (
                        widget.container_size.height
                        - widget.scrollbar_size_horizontal
                    )
                    widget.scroll_y = new_scroll_y
                    widget.scroll_target_y = new_scroll_y
                    widget.vertical_scrollbar.position = new_scroll_y

            if visible:
                # Add any scrollbars
                if (
                    widget.show_vertical_scrollbar
                    or widget.show_horizontal_scrollbar
                ) and styles.scrollbar_visibility == "visible":
                    for chrome_widget, chrome_region in widget._arrange_scrollbars(
                        container_region
                    ):
                        map[chrome_widget] = _MapGeometry(
                            chrome_region,
                            order,
                            clip,
                            container_size,
                            container_size,
                            chrome_region,
                            dock_gutter,
                        )

                map[widget._render_widget] = _MapGeometry(
                    region,
                    order,
                    clip,
                    total_region.size,
                    container_size,
                    virtual_region,
                    dock_gutter,
                )

        elif visible:
            # Add the widget to the map
            map[widget._render_widget] = _MapGeometry(
                region,
                order,
                clip,
                region.size,
                container_size,
                virtual_region,
                dock_gutter,
            )

    add_widget(
        root,
        geometry.virtual_region,
        geometry.region,
        geometry.order,
        geometry.order[-1][2],  # (its layer order: the last part of its paint order, as its parent placed it)
        geometry.clip,
        True,
        geometry.dock_gutter,
    )
    widgets -= invisible_widgets
    return map, widgets
# fmt: on
