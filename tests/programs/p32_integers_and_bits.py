"""Integer arithmetic, dtypes and bit manipulation.

Style: the numpy user guide's "Data types" page and "bitwise" examples, plus
number-theory snippets from programming-puzzle solutions: floor division and
modulo with negative numbers, integer overflow wrapping in fixed-width types,
casting rules (np.result_type, astype with unsigned wrap), a sieve of
Eratosthenes with boolean slicing, gcd/lcm, digit sums, bit counting with
shifts and masks, packing booleans into an integer, and a modular
exponentiation / Collatz loop on integer arrays.
"""


def main(np):
    a = np.array([-7, -3, 0, 3, 7])
    print(f"a // 2 = {(a // 2).tolist()}, a % 3 = {(a % 3).tolist()}")
    q, r = np.divmod(a, 4)
    print(f"divmod by 4: {q.tolist()} {r.tolist()}")
    print(f"fmod by 3: {np.fmod(a, 3).tolist()}, remainder: {np.remainder(a, 3).tolist()}")
    print(f"true division dtype {(a / 2).dtype}, floor division dtype {(a // 2).dtype}")

    # fixed-width overflow wraps
    i8 = np.array([100, 120, -128], dtype=np.int8)
    wrapped = i8 + np.int8(10)
    print(f"int8 wrap {wrapped.tolist()}, dtype {wrapped.dtype}")
    u16 = np.array([65535, 1], dtype=np.uint16)
    print(f"uint16 + 1 = {(u16 + np.uint16(1)).tolist()}")
    neg = np.array([-1, -2, 3]).astype(np.uint8)
    print(f"negative to uint8 {neg.tolist()}")
    print(
        f"result types: {np.result_type(np.int8, np.uint8)}, "
        f"{np.result_type(np.int32, np.float32)}, {np.result_type(np.uint64, np.int64)}"
    )
    print(f"iinfo int16 {np.iinfo(np.int16).min}..{np.iinfo(np.int16).max}")
    big = np.array([2**40, 3], dtype=np.int64)
    print(
        f"int64 product {(big * big)[1]}, cumprod of 1..20 "
        f"last {int(np.cumprod(np.arange(1, 21))[-1])}"
    )

    # sieve of Eratosthenes
    N = 200
    is_prime = np.ones(N + 1, dtype=bool)
    is_prime[:2] = False
    for i in range(2, int(N**0.5) + 1):
        if is_prime[i]:
            is_prime[i * i :: i] = False
    primes = np.flatnonzero(is_prime)
    print(f"{len(primes)} primes below {N}, last five {primes[-5:].tolist()}")
    gaps = np.diff(primes)
    print(f"largest prime gap {int(gaps.max())} after {int(primes[np.argmax(gaps)])}")
    twins = primes[:-1][gaps == 2]
    print(f"twin prime pairs {len(twins)}")

    # gcd / lcm
    x = np.array([12, 18, 35, 64])
    y = np.array([8, 27, 14, 48])
    print(
        f"gcd {np.gcd(x, y).tolist()}, lcm {np.lcm(x, y).tolist()}, "
        f"gcd.reduce-free {int(np.gcd(np.gcd(x[0], x[1]), x[3]))}"
    )

    # digit sums and reversed numbers
    nums = np.array([0, 7, 42, 999, 12345])
    digits = np.zeros_like(nums)
    rev = np.zeros_like(nums)
    m = nums.copy()
    for _ in range(6):
        digits += m % 10
        rev = rev * 10 + m % 10
        m //= 10
    print(f"digit sums {digits.tolist()}")

    # bits
    v = np.array([0, 1, 5, 255, 1023], dtype=np.uint32)
    popcount = np.zeros_like(v)
    w = v.copy()
    for _ in range(32):
        popcount += w & 1
        w >>= 1
    print(f"popcounts {popcount.tolist()}")
    print(f"and {(v & 0xF).tolist()}, or {(v | 0x100).tolist()}, xor {(v ^ 0xFF).tolist()}")
    print(
        f"left shift {(v << 2).tolist()}, invert int8 "
        f"{np.invert(np.array([0, 1, -1], dtype=np.int8)).tolist()}"
    )
    flags = np.array([True, False, True, True, False, False, True, False])
    packed = int((flags.astype(np.int64) << np.arange(8)).sum())
    unpacked = (packed >> np.arange(8)) & 1
    print(f"packed flags {packed}, unpacked {unpacked.astype(bool).tolist() == flags.tolist()}")
    powers = np.left_shift(1, np.arange(10))
    print(f"powers of two {powers.tolist()}")

    # modular exponentiation by squaring on an array of bases
    base = np.array([2, 3, 5, 7], dtype=np.int64)
    mod = 1_000_000_007
    result = np.ones_like(base)
    e = 12345
    b = base % mod
    while e:
        if e & 1:
            result = result * b % mod
        b = b * b % mod
        e >>= 1
    print(
        f"pow(base, 12345, mod) {result.tolist()}, check {[pow(int(k), 12345, mod) for k in base]}"
    )

    # Collatz stopping times, vectorised with masks
    start = np.arange(1, 21)
    cur = start.copy()
    steps = np.zeros_like(start)
    for _ in range(50):
        active = cur != 1
        if not active.any():
            break
        even = (cur % 2 == 0) & active
        odd = ~even & active
        cur[even] //= 2
        cur[odd] = 3 * cur[odd] + 1
        steps += active
    print(f"Collatz steps {steps.tolist()}")
    print(f"longest at n={int(start[np.argmax(steps)])}")

    return {
        "floordiv": a // 2,
        "mod": a % 3,
        "q": q,
        "r": r,
        "fmod": np.fmod(a, 3),
        "wrapped": wrapped,
        "neg": neg,
        "big2": big * big,
        "primes": primes,
        "twins": twins,
        "gcd": np.gcd(x, y),
        "lcm": np.lcm(x, y),
        "digits": digits,
        "rev": rev,
        "popcount": popcount,
        "packed": packed,
        "powers": powers,
        "result": result,
        "steps": steps,
    }
