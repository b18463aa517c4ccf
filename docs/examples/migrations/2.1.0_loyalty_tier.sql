ALTER TABLE public.customers ADD COLUMN loyalty_tier text;
