"""The screen layout at every size the kiosk meets: nothing outside, nothing overlapping."""

from __future__ import annotations

import pytest

from oasis_kiosk.ui.layout import layout, window_size


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (800, 480), (1024, 768)])
@pytest.mark.parametrize("boxes", [1, 2, 3])
def test_every_region_is_on_screen_and_none_overlaps(size: tuple[int, int], boxes: int) -> None:
    screen = layout(*size, boxes)
    regions = screen.regions()
    for region in regions:
        assert region.inside(screen.screen), region
        assert region.w > 0
        assert region.h > 0
    for i, one in enumerate(regions):
        for other in regions[i + 1 :]:
            assert not one.overlaps(other), (one, other)
    # Five cards side by side fit in every box and in the dealer's row; six where a sixth is sold.
    for box in screen.boxes:
        assert 5 * screen.card_w + 4 * (screen.card_w // 8) <= box.w
    six = layout(*size, boxes, hand=6)
    for box in six.boxes:
        assert all(card.inside(box) for card in six.cards(box, 6))
        assert screen.card_h < box.h
    assert screen.card_h * 5 == screen.card_w * 7 or abs(screen.card_h * 5 - screen.card_w * 7) < 5
    assert screen.large > screen.medium >= screen.small


@pytest.mark.parametrize("buttons", [4, 6])
def test_touch_buttons_on_the_7_inch_panel_are_at_least_10_mm(buttons: int) -> None:
    screen = layout(800, 480, 1)
    assert screen.compact
    for area in screen.button_areas(buttons):
        assert area.h >= screen.minimum_touch() >= 50
        assert area.w >= screen.minimum_touch()
        assert area.inside(screen.buttons)


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768), (800, 480)])
@pytest.mark.parametrize("buttons", [2, 4, 5, 8, 9])
def test_many_buttons_take_two_rows_beside_the_meters_rather_than_squeeze(
    size: tuple[int, int], buttons: int
) -> None:
    """Betting brought eight buttons: side by side beside the meters, each was 49 pixels wide
    at 1024x768, too narrow for a word at the floor size."""
    screen = layout(*size, 1)
    areas = screen.button_areas(buttons)
    assert len(areas) == buttons
    for number, area in enumerate(areas):
        assert area.inside(screen.buttons)
        assert not any(area.overlaps(other) for other in areas[number + 1 :])
        assert area.h >= screen.floor * 5 // 2, "room for a label on two lines"
        if buttons <= 8:
            assert area.w >= screen.floor * 6, "room for a word at the floor size"
    assert len({area.w for area in areas}) == 1


@pytest.mark.parametrize("size", [(1920, 1080), (1280, 720), (1024, 768), (800, 480)])
def test_buttons_as_wide_as_their_labels_fill_their_bar_without_overlapping(size: tuple[int, int]) -> None:
    """Ten buttons on the touchscreen gave each 74 pixels, too narrow for ВЫПЛАТА or EN/CS/RU
    at the floor size: the bar now gives each what its label needs, and no less than 10 mm."""
    screen = layout(*size, 1)
    needs = (30, 60, 40, 60, 50, 70, 45, 80, 74, 80)
    areas = screen.button_areas(len(needs), needs)
    assert len(areas) == len(needs)
    for number, (area, need) in enumerate(zip(areas, needs, strict=True)):
        assert area.inside(screen.buttons)
        assert not any(area.overlaps(other) for other in areas[number + 1 :])
        assert area.w >= need
        if screen.compact:
            assert area.w >= screen.minimum_touch()
            assert area.h >= screen.minimum_touch()
    rows = {area.y for area in areas}
    for row in rows:
        along = [area for area in areas if area.y == row]
        assert screen.buttons.right - 4 <= along[-1].right, "the room left over is shared out"


def test_an_impossible_screen_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot be laid out"):
        layout(200, 100, 1)


def test_a_screen_on_end_is_refused_with_why() -> None:
    """A display turned on end had been laid out as a wide one: its words ran out of the
    buttons and over each other."""
    layout(1280, 1024, 3)
    with pytest.raises(ValueError, match="taller for its width than 5:4"):
        layout(1080, 1920, 1)


@pytest.mark.parametrize(
    ("display", "window"),
    [
        ((3840, 2160), (3792, 2064)),
        ((1920, 1080), (1872, 984)),  # a full-size window would hide under the panel and title
        ((1366, 768), (1318, 672)),  # not the 800x480 of the largest standard size that fits
        ((1280, 1024), (1232, 928)),
        ((800, 600), (752, 504)),
        ((1080, 1920), (1032, 825)),  # a display on end: no taller than 5:4
    ],
)
def test_a_window_takes_the_room_the_desktops_bars_leave(
    display: tuple[int, int], window: tuple[int, int]
) -> None:
    assert window_size(display) == window


def test_a_tiny_display_still_gets_a_window_that_can_be_laid_out() -> None:
    width, height = window_size((400, 300))
    assert layout(width, height, 1).screen.w == width
