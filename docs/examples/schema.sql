CREATE TABLE public.customers (
  id bigint PRIMARY KEY,
  email text NOT NULL,
  phone text,
  full_name text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE public.orders (
  id bigint PRIMARY KEY,
  customer_id bigint NOT NULL REFERENCES public.customers (id),
  total_cents bigint NOT NULL,
  status text NOT NULL DEFAULT 'pending'
);

CREATE INDEX orders_customer_id_idx ON public.orders (customer_id);
