"""The board's measures in the SVG's units: every drawing of the board places by these."""

WIDTH, HEIGHT = 640, 500
POINT_WIDTH = 40
MARGIN = 12
LABEL = 18
TOP = LABEL + MARGIN  # the board's inner top edge
BOTTOM = HEIGHT - LABEL - MARGIN  # its inner bottom edge
LEFT = MARGIN
BAR_X = LEFT + 6 * POINT_WIDTH
BAR_WIDTH = 44
RIGHT_HALF = BAR_X + BAR_WIDTH
TRAY_X = RIGHT_HALF + 6 * POINT_WIDTH + MARGIN
TRAY_WIDTH = 56
LEFT_TRAY_X = LEFT - MARGIN - TRAY_WIDTH  # the opponent's tray when both run the same way
POINT_HEIGHT = 190
TRAY_HEIGHT = 160  # room for 15 checkers off and, between the trays, for the cube
RADIUS = 17
STACK = 5  # checkers drawn on a point before the rest are counted
