"""SQL families: one SQLite SELECT, run by the hidden tests against several datasets (the
first is shown as sample data); expected rows come from running the reference in sqlite3."""

from __future__ import annotations

from hub import Variant

from ..family import CITIES, NAMES, WORDS, family, sql_spec

SHOP = """
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), day TEXT, amount REAL);
"""


def _shop(rng, n_customers=None, n_orders=None):
    names = rng.sample(NAMES, n_customers or rng.randint(3, 6))
    rows = [f"INSERT INTO customers VALUES ({i}, '{n}', '{rng.choice(CITIES)}');" for i, n in enumerate(names, 1)]
    for k in range(1, (n_orders or rng.randint(4, 12)) + 1):
        rows.append(f"INSERT INTO orders VALUES ({k}, {rng.randint(1, len(names))}, '2024-{rng.randint(1, 6):02d}-{rng.randint(1, 28):02d}', {rng.randint(1, 400) / 4});")
    return "\n".join(rows) + "\n"


def _sql(rng, name, prompt, schema, make, ref, wrong, edge=(), ordered=True):
    data = [make(rng) for _ in range(3)] + list(edge)
    return sql_spec(prompt, schema, data, ref, wrong, ordered=ordered)


@family("sql", "sql-top-customers", language="sql")
def sql_top_customers(rng):
    """Top-N customers by total order amount."""
    n = rng.randint(2, 3)
    edge = ["INSERT INTO customers VALUES (1,'zed','Oslo'),(2,'amy','Lima'),(3,'bo','Rome');\n"
            "INSERT INTO orders VALUES (1,1,'2024-01-01',10),(2,2,'2024-01-02',4),(3,2,'2024-01-03',6),(4,3,'2024-01-01',1);\n",
            # four customers tied: the name decides both the order and who is left out
            "INSERT INTO customers VALUES (1,'zed','Oslo'),(2,'max','Lima'),(3,'bo','Rome'),(4,'cy','Rome');\n"
            "INSERT INTO orders VALUES (1,1,'2024-01-01',7),(2,2,'2024-01-02',7),(3,3,'2024-01-03',3),(4,3,'2024-01-04',4),"
            "(5,4,'2024-01-05',7);\n"]
    ref = f"SELECT c.name, SUM(o.amount) AS total FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY total DESC, c.name ASC LIMIT {n};"
    wrong = [f"SELECT c.name, MAX(o.amount) AS total FROM customers c JOIN orders o ON o.customer_id = c.id GROUP BY c.id ORDER BY total DESC LIMIT {n};",
             Variant("ties unordered", ref.replace(", c.name ASC", ""), 1, "ties left in the order the groups come in")]
    return _sql(rng, "top", f"Write a query returning the {n} customers with the largest total order amount: columns name and "
                f"total (the sum of their orders' amounts), largest first, ties by name ascending.", SHOP, _shop, ref, wrong, edge)


@family("sql", "sql-monthly-revenue", language="sql")
def sql_monthly_revenue(rng):
    """Revenue and order count per month."""
    ref = "SELECT strftime('%Y-%m', day) AS month, COUNT(*) AS orders, ROUND(SUM(amount), 2) AS revenue FROM orders GROUP BY month ORDER BY month;"
    wrong = ["SELECT substr(day, 6, 2) AS month, COUNT(*) AS orders, ROUND(SUM(amount), 2) AS revenue FROM orders GROUP BY month ORDER BY month;"]
    edge = ["INSERT INTO customers VALUES (1,'a','x');\nINSERT INTO orders VALUES (1,1,'2023-05-02',1.5),(2,1,'2024-05-03',2.25),(3,1,'2024-05-30',3);\n",
            "INSERT INTO customers VALUES (1,'a','x');\nINSERT INTO orders VALUES (1,1,'2024-02-02',0.333),(2,1,'2024-02-09',1.111);\n"]
    return _sql(rng, "month", "Write a query giving, for each month that has orders, columns month ('YYYY-MM'), orders (count) "
                "and revenue (sum of amount rounded to 2 decimals), in month order.", SHOP, _shop, ref, wrong, edge)


@family("sql", "sql-no-orders", language="sql")
def sql_no_orders(rng):
    """Customers without any order (anti-join)."""
    ref = "SELECT c.name FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL ORDER BY c.name;"
    wrong = ["SELECT c.name FROM customers c WHERE c.id NOT IN (SELECT customer_id FROM orders WHERE amount > 10) ORDER BY c.name;"]
    edge = ["INSERT INTO customers VALUES (1,'a','x'),(2,'b','y');\nINSERT INTO orders VALUES (1,1,'2024-01-01',5);\n",
            # an order whose customer is unknown (NULL): `NOT IN` a list holding NULL is never true
            "INSERT INTO customers VALUES (1,'a','x'),(2,'b','y'),(3,'c','z');\n"
            "INSERT INTO orders VALUES (1,1,'2024-01-01',5),(2,NULL,'2024-01-02',9);\n"]
    wrong.append(Variant("NOT IN with a NULL", "SELECT name FROM customers WHERE id NOT IN (SELECT customer_id FROM orders) "
                         "ORDER BY name;", 1, "no customer at all once an order has no customer_id"))
    return _sql(rng, "none", "Write a query listing the names of customers who have no orders at all, alphabetically (column name).",
                SHOP, lambda r: _shop(r, r.randint(5, 8), r.randint(2, 5)), ref, wrong, edge)


EMP = """
CREATE TABLE employees (id INTEGER PRIMARY KEY, name TEXT NOT NULL, dept TEXT NOT NULL, salary INTEGER NOT NULL, manager_id INTEGER);
"""


def _emps(rng):
    depts = rng.sample(["eng", "ops", "sales", "hr"], 3)
    rows = []
    for i, n in enumerate(rng.sample(NAMES, rng.randint(5, 10)), 1):
        mgr = rng.randint(1, i - 1) if i > 1 else "NULL"
        rows.append(f"INSERT INTO employees VALUES ({i}, '{n}', '{rng.choice(depts)}', {rng.randint(3, 12) * 1000}, {mgr});")
    return "\n".join(rows) + "\n"


@family("sql", "sql-second-salary", language="sql")
def sql_second_salary(rng):
    """Second-highest distinct salary per department."""
    ref = ("SELECT dept, MAX(salary) AS second FROM employees e WHERE salary < (SELECT MAX(salary) FROM employees WHERE dept = e.dept) "
           "GROUP BY dept ORDER BY dept;")
    wrong = ["SELECT dept, salary AS second FROM (SELECT dept, salary, ROW_NUMBER() OVER (PARTITION BY dept ORDER BY salary DESC) AS r FROM employees) WHERE r = 2 ORDER BY dept;"]
    edge = ["INSERT INTO employees VALUES (1,'a','eng',9000,NULL),(2,'b','eng',9000,1),(3,'c','eng',5000,1),(4,'d','ops',4000,NULL);\n"]
    return _sql(rng, "second", "Write a query giving, per department, the second-highest distinct salary (columns dept, second), "
                "in dept order. Departments with a single distinct salary are left out.", EMP, _emps, ref, wrong, edge)


@family("sql", "sql-running-total", language="sql")
def sql_running_total(rng):
    """Running total of order amounts per customer (window function)."""
    ref = ("SELECT customer_id, id, SUM(amount) OVER (PARTITION BY customer_id ORDER BY day, id) AS running FROM orders "
           "ORDER BY customer_id, day, id;")
    wrong = ["SELECT customer_id, id, SUM(amount) OVER (ORDER BY day, id) AS running FROM orders ORDER BY customer_id, day, id;"]
    return _sql(rng, "running", "Write a query returning every order as (customer_id, id, running) where running is the total of "
                "that customer's order amounts up to and including this order, orders taken by day then id; rows sorted by "
                "customer_id, day, id.", SHOP, _shop, ref, wrong)


USERS = "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT NOT NULL, created TEXT NOT NULL);\n"


def _users(rng):
    emails = [f"{rng.choice(NAMES)}@{rng.choice(WORDS)}.com" for _ in range(4)]
    rows = []
    for i in range(1, rng.randint(5, 10)):
        e = rng.choice(emails)
        rows.append(f"INSERT INTO users VALUES ({i}, '{e.upper() if rng.random() < 0.3 else e}', '2024-0{rng.randint(1, 9)}-1{rng.randint(0, 9)}');")
    return "\n".join(rows) + "\n"


@family("sql", "sql-duplicate-emails", language="sql")
def sql_duplicate_emails(rng):
    """Case-insensitive duplicate e-mails with counts."""
    ref = "SELECT lower(email) AS email, COUNT(*) AS n FROM users GROUP BY lower(email) HAVING COUNT(*) > 1 ORDER BY n DESC, email;"
    wrong = ["SELECT email, COUNT(*) AS n FROM users GROUP BY email HAVING COUNT(*) > 1 ORDER BY n DESC, email;"]
    edge = ["INSERT INTO users VALUES (1,'A@x.com','2024-01-01'),(2,'a@x.com','2024-01-02'),(3,'b@x.com','2024-01-03'),"
            "(4,'C@x.com','2024-01-04'),(5,'c@x.com','2024-01-05'),(6,'c@X.com','2024-01-06');\n"]  # counts 3 and 2
    return _sql(rng, "dup", "Write a query finding e-mail addresses used by more than one user, compared case-insensitively: "
                "columns email (lower-cased) and n (how many users), most used first, then by email.", USERS, _users, ref, wrong, edge)


@family("sql", "sql-above-manager", language="sql")
def sql_above_manager(rng):
    """Employees paid more than their manager (self-join)."""
    ref = ("SELECT e.name, m.name AS manager FROM employees e JOIN employees m ON e.manager_id = m.id "
           "WHERE e.salary > m.salary ORDER BY e.name;")
    wrong = ["SELECT e.name, m.name AS manager FROM employees e JOIN employees m ON e.manager_id = m.id "
             "WHERE e.salary >= m.salary ORDER BY e.name;"]
    edge = ["INSERT INTO employees VALUES (1,'boss','eng',5000,NULL),(2,'eq','eng',5000,1),(3,'hi','eng',6000,1),(4,'lo','eng',100,3);\n"]
    return _sql(rng, "mgr", "Write a query listing employees who earn strictly more than their manager: columns name and manager "
                "(the manager's name), ordered by name.", EMP, _emps, ref, wrong, edge)


REVIEWS = "CREATE TABLE reviews (product TEXT NOT NULL, stars INTEGER NOT NULL CHECK (stars BETWEEN 1 AND 5));\n"


@family("sql", "sql-rated-products", language="sql")
def sql_rated_products(rng):
    """Average rating with a minimum review count (HAVING)."""
    k = rng.randint(2, 3)
    def make(r):
        prods = r.sample(WORDS, 4)
        return "".join(f"INSERT INTO reviews VALUES ('{r.choice(prods)}', {r.randint(1, 5)});\n" for _ in range(r.randint(6, 14)))
    ref = f"SELECT product, ROUND(AVG(stars), 2) AS avg_stars, COUNT(*) AS n FROM reviews GROUP BY product HAVING COUNT(*) >= {k} ORDER BY avg_stars DESC, product;"
    wrong = ["SELECT product, ROUND(AVG(stars), 2) AS avg_stars, COUNT(*) AS n FROM reviews GROUP BY product ORDER BY avg_stars DESC, product;"]
    edge = ["INSERT INTO reviews VALUES ('solo', 5), ('pair', 4), ('pair', 3), ('trio', 2), ('trio', 2), ('trio', 3);\n",
            # 35/8 = 4.375 and 57/13 = 4.3846 both round to 4.38: tied averages, ordered by product
            "INSERT INTO reviews VALUES " + ", ".join(["('alpha', 5)"] * 3 + ["('alpha', 4)"] * 5 + ["('beta', 5)"] * 5
                                                      + ["('beta', 4)"] * 8 + ["('gamma', 3)"] * 3) + ";\n"]
    wrong.append(Variant("sorted by the unrounded average", ref.replace("ORDER BY avg_stars DESC", "ORDER BY AVG(stars) DESC"), 1,
                         "averages that round the same are not ties"))
    return _sql(rng, "rated", f"Write a query giving, for products with at least {k} reviews, columns product, avg_stars (average "
                f"stars rounded to 2 decimals) and n (review count), best average first, ties by product.", REVIEWS, make, ref, wrong, edge)
