-- V2_32_1: backfill tax_region_code from the order's shipping country (ORD-4471)
-- runs in a single transaction (flyway default for MySQL DML)
UPDATE order_lines ol
               JOIN orders o ON o.id = ol.order_id
                SET ol.tax_region_code = o.ship_country_code
              WHERE ol.tax_region_code IS NULL;
