"""The rating history chart's geometry (ratings/chart.py)."""

from __future__ import annotations

from ratings.chart import PLOT_BOTTOM, PLOT_LEFT, PLOT_RIGHT, PLOT_TOP, rating_chart


def test_no_rated_match_draws_no_chart():
    assert rating_chart([]) is None
    assert rating_chart([1500]) is None


def test_one_point_per_rating_spread_over_the_plot_left_to_right():
    ratings = [1500, 1620, 1580, 1701.4, 1650]
    chart = rating_chart(ratings)
    xs = [point.x for point in chart.points]
    assert len(chart.points) == len(ratings)
    assert xs == sorted(xs) and xs[0] == PLOT_LEFT and xs[-1] == PLOT_RIGHT
    assert chart.line == " ".join(f"{p.x},{p.y}" for p in chart.points)
    assert chart.points[-1].label == "after rated match 4: 1650"


def test_a_higher_rating_is_drawn_higher_and_every_point_inside_the_plot():
    ratings = [1500, 1620, 1580, 1701.4, 1650]
    chart = rating_chart(ratings)
    ys = {value: point.y for value, point in zip(ratings, chart.points, strict=True)}
    assert ys[1701.4] < ys[1650] < ys[1620] < ys[1580] < ys[1500]
    assert all(PLOT_TOP <= point.y <= PLOT_BOTTOM for point in chart.points)


def test_the_y_axis_is_labelled_in_round_numbers_around_the_ratings():
    chart = rating_chart([1500, 1620, 1580, 1701.4, 1650])
    values = [int(tick.label) for tick in chart.y_ticks]
    assert values[0] <= 1500 and values[-1] >= 1701.4
    steps = {later - earlier for earlier, later in zip(values, values[1:], strict=False)}
    assert len(steps) == 1 and steps.pop() in (10, 20, 25, 50, 100, 200, 250, 500)
    assert 3 <= len(values) <= 7
    positions = [tick.position for tick in chart.y_ticks]
    assert positions[0] == PLOT_BOTTOM and positions[-1] == PLOT_TOP


def test_a_flat_history_still_gets_a_scale():
    chart = rating_chart([1500, 1500])
    assert len(chart.y_ticks) >= 2
    assert {point.y for point in chart.points} == {(PLOT_TOP + PLOT_BOTTOM) / 2}


def test_the_x_axis_counts_rated_matches_with_at_most_a_few_labels():
    chart = rating_chart([1500 + (index % 7) * 10 for index in range(101)])
    labels = [int(tick.label) for tick in chart.x_ticks]
    assert labels[0] == 0 and labels[-1] <= 100 and len(labels) <= 11
    assert rating_chart([1500, 1510, 1490]).x_ticks[-1].label == "2"
