committed
done
