"""Newton's method on the Rosenbrock function, with micrograd's grad and hessian.

    python examples/newton.py

Each step solves H d = -g (the 2x2 Hessian and the gradient at the point, both exact) and moves
to the point + d. From (-1.2, 1), the classic start, it reaches the minimum (1, 1) in a handful of
steps, where gradient descent needs thousands.
"""

from micrograd.functional import hessian, value_and_grad


def rosenbrock(x, y):
    """(1 - x)^2 + 100 (y - x^2)^2: a curved valley with its minimum at (1, 1)."""
    return (1 - x) ** 2 + 100 * (y - x**2) ** 2


def newton(f, point, steps=20, tol=1e-12):
    """Minimise f from `point` with Newton steps; print each step."""
    x, y = point
    for k in range(steps):
        value, (gx, gy) = value_and_grad(f, argnums=(0, 1))(x, y)
        print(f"step {k}: f({x:.6f}, {y:.6f}) = {value:.3e}")
        if abs(gx) + abs(gy) < tol:
            break
        (a, b), (c, d) = hessian(f)(x, y)
        det = a * d - b * c
        # Solve [[a, b], [c, d]] @ (dx, dy) = -(gx, gy) by Cramer's rule.
        dx = (-gx * d + gy * b) / det
        dy = (-gy * a + gx * c) / det
        x, y = x + dx, y + dy
    return x, y


def main():
    x, y = newton(rosenbrock, (-1.2, 1.0))
    print(f"minimum near ({x:.6f}, {y:.6f})")


if __name__ == "__main__":
    main()
