"""The board's measures in the SVG's units: every drawing of the board places by these.

One drawing serves every screen: the checkers fill their points' width and nothing but a thin
frame and the bar stands beside the points, so that at 390 CSS px a checker is about 29 px
across. The trays, the checkers waiting to enter and an owned cube lie in a strip above and
below the board instead of a column beside it.
"""

POINT_WIDTH = 40
MARGIN = 12
SIDE = 6  # the frame's width left and right of the points
LABEL = 18
STRIP = 66  # the strips above and below the board: trays, waiting checkers, an owned cube
BOARD_HEIGHT = 500  # the board between the strips, point numbers included
HEIGHT = BOARD_HEIGHT + 2 * STRIP
TOP = STRIP + LABEL + MARGIN  # the board's inner top edge
BOTTOM = STRIP + BOARD_HEIGHT - LABEL - MARGIN  # its inner bottom edge
LEFT = SIDE
BAR_X = LEFT + 6 * POINT_WIDTH
BAR_WIDTH = 36
RIGHT_HALF = BAR_X + BAR_WIDTH
WIDTH = RIGHT_HALF + 6 * POINT_WIDTH + SIDE
POINT_HEIGHT = 190
RADIUS = 19.5
STACK = 5  # checkers drawn on a point before the rest are counted
SLIVER = 9  # the step between two borne-off checkers, drawn side by side in a tray
TRAY_WIDTH = 6 * POINT_WIDTH  # a tray lies along a home board
TRAY_HEIGHT = STRIP - 4  # a tray fills its strip: 44 CSS px tall at 390 px wide
