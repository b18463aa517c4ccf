CREATE INDEX customers_loyalty_tier_idx ON public.customers (loyalty_tier);
