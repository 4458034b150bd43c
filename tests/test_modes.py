"""micrograd.modes: detect_anomaly() and no_grad(), per thread."""

import math

import pytest

from micrograd import Value, detect_anomaly, no_grad


# ---------------------------------------------------------------------------- detect_anomaly
def test_forward_nan_is_caught_with_op_inputs_and_place():
    with detect_anomaly():
        x = Value(-1.0)
        with pytest.raises(FloatingPointError) as e:
            x**0.5
    msg = str(e.value)
    assert "'**0.5'" in msg and "-1.0" in msg and "nan" in msg
    assert "test_modes.py" in msg and "x**0.5" in msg


def test_backward_inf_is_caught_and_says_where_the_value_was_made():
    with detect_anomaly():
        x = Value(0.0)
        y = x**0.5  # d/dx sqrt(x) is infinite at 0
        with pytest.raises(FloatingPointError) as e:
            y.backward()
    msg = str(e.value)
    assert "backward of op '**0.5'" in msg and "inf" in msg and "y = x**0.5" in msg


def test_anomaly_mode_is_off_outside_and_per_thread():
    x = Value(-1.0)
    assert math.isnan((x**0.5).data)  # no error outside the block
    with detect_anomaly():
        y = x * 2
    assert y._prev == (x, y._prev[1])


def test_no_grad_inside_anomaly_mode():

    with detect_anomaly(), no_grad():
        z = Value(2.0) * 3
    assert z._prev == () and z.data == 6.0
