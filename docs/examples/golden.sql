CREATE TABLE customers (id bigint PRIMARY KEY, email text NOT NULL);
CREATE TABLE orders (id bigint PRIMARY KEY, customer_id bigint, total numeric);
